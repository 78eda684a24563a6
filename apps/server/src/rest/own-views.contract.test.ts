import { type AuthedContext, loadOwnTeam, loadSelf, ownViews } from "@flagship/api";
import { contextFor, createCategory, createChallenge, createTestWorld, createUser, type TestUser, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type RecordingSocket, openSocket } from "../realtime/ws-client.ts";
import { createTestServer, type ServerCopy, startServerCopy, type TestServer } from "../testing.ts";

/**
 * GET /member/self/ and GET /team/self/ are served from maintained views. After every kind of
 * change (a solve, a wrong flag, a hint use, a decay re-scoring, a join, a leave, staff edits)
 * each answer must equal the one built fresh from the database, on this server and on a second
 * copy behind the same Redis.
 */

type Api = (method: "GET" | "POST" | "PATCH", path: string, token: string, body?: unknown) => Promise<{ status: number; body: { m: string; d: any } }>;

async function fresh(world: TestWorld, user: TestUser): Promise<{ self: unknown; team: unknown }> {
  const ctx = contextFor(world, user) as AuthedContext;
  const [self, team] = await Promise.all([loadSelf(ctx), loadOwnTeam(ctx)]);
  return JSON.parse(JSON.stringify({ self, team })) as { self: unknown; team: unknown };
}

async function served(api: Api, user: TestUser): Promise<{ self: unknown; team: unknown }> {
  const self = await api("GET", "/member/self/", user.token);
  const team = await api("GET", "/team/self/", user.token);
  expect(self.status).toBe(200);
  return { self: self.body.d, team: team.status === 404 ? null : team.body.d };
}

async function expectFresh(api: Api, world: TestWorld, users: TestUser[]): Promise<void> {
  for (const user of users) expect(await served(api, user)).toEqual(await fresh(world, user));
}

describe("the own profile and own team views on one server", () => {
  let server: TestServer;
  let api: Api;
  let alice: TestUser;
  let alex: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let staff: TestUser;
  let teamA: number;
  let basic: { id: number };
  let hinted: { id: number };
  let decay: { id: number };
  let hintId: number;

  beforeAll(async () => {
    server = await createTestServer();
    api = (method, path, token, body) => server.api(method, path, { token, ...(body !== undefined && { body }) });
    const world = server.world;
    const { db } = world.services;
    staff = await createUser(world, { isStaff: true });
    teamA = (await db.team.create({ data: { name: "Views A", password: "views-secret-a" } })).id;
    const teamB = (await db.team.create({ data: { name: "Views B", password: "views-secret-b" } })).id;
    alice = await createUser(world, { teamId: teamA });
    alex = await createUser(world, { teamId: teamA });
    bob = await createUser(world, { teamId: teamB });
    carol = await createUser(world);
    await db.team.update({ where: { id: teamA }, data: { ownerId: alice.id } });
    await db.team.update({ where: { id: teamB }, data: { ownerId: bob.id } });
    const category = await createCategory(world);
    basic = await createChallenge(world, category.id, { score: 100 });
    hinted = await createChallenge(world, category.id, { score: 200, hints: [{ name: "Nudge", penalty: 30, text: "Look left." }] });
    decay = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 50 } });
    hintId = (await db.hint.findFirstOrThrow({ where: { challengeId: hinted.id } })).id;
  });
  afterAll(() => server.close());

  it("are held after a first read, and equal fresh ones after solves, wrong flags, hint uses and a decay re-scoring", async () => {
    const world = server.world;
    await expectFresh(api, world, [alice, alex, bob]);
    expect(ownViews(world.services).size).toEqual({ selves: 3, teams: 2 });

    expect((await api("POST", "/challenges/submit_flag/", alice.token, { challenge: basic.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await expectFresh(api, world, [alice, alex, bob]);
    expect((await served(api, alex)).team).toMatchObject({ points: 100, solves: [expect.objectContaining({ challenge: basic.id, solved_by: alice.id })] });

    expect((await api("POST", "/challenges/submit_flag/", alex.token, { challenge: hinted.id, flag: "flag{wrong}" })).body.m).toBe("incorrect_flag");
    await expectFresh(api, world, [alice, alex, bob]);
    expect((await served(api, alex)).self).toMatchObject({ incorrect_solves: 1 });
    expect((await served(api, alice)).team).toMatchObject({ incorrect_solves: 1 });

    expect((await api("POST", "/hints/use/", alex.token, { id: hintId })).status).toBe(200);
    expect((await api("POST", "/challenges/submit_flag/", alex.token, { challenge: hinted.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await expectFresh(api, world, [alice, alex, bob]);
    expect((await served(api, alex)).self).toMatchObject({ points: 170, solves: [expect.objectContaining({ challenge: hinted.id, points: 170 })] });

    // Bob solves the decay challenge first; Alice's solve then lowers its value for Bob too.
    expect((await api("POST", "/challenges/submit_flag/", bob.token, { challenge: decay.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await expectFresh(api, world, [alice, bob]);
    const before = (await served(api, bob)).self as { points: number };
    expect((await api("POST", "/challenges/submit_flag/", alice.token, { challenge: decay.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await expectFresh(api, world, [alice, alex, bob]);
    expect(((await served(api, bob)).self as { points: number }).points).toBeLessThan(before.points);
  });

  it("equal fresh ones after a join, a leave, a profile edit and staff edits of a member and a team", async () => {
    const world = server.world;
    await expectFresh(api, world, [alice, alex, carol]);
    expect((await api("POST", "/team/join/", carol.token, { name: "Views A", password: "views-secret-a" })).status).toBe(200);
    await expectFresh(api, world, [alice, alex, carol]);
    expect(((await served(api, alice)).team as { members: { id: number }[] }).members.map((m) => m.id)).toContain(carol.id);

    await api("POST", "/config/enable_team_leave/", staff.token, { value: true });
    try {
      expect((await api("POST", "/team/leave/", carol.token)).status).toBe(200);
      await expectFresh(api, world, [alice, alex, carol]);
      expect((await served(api, carol)).team).toBeNull();
    } finally {
      await api("POST", "/config/enable_team_leave/", staff.token, { value: false });
    }

    expect((await api("PATCH", "/member/self/", alex.token, { bio: "Edited bio" })).body.d).toMatchObject({ bio: "Edited bio" });
    await expectFresh(api, world, [alice, alex]);

    expect((await api("PATCH", `/member/${alex.id}/`, staff.token, { username: "alex-renamed-by-staff" })).status).toBe(200);
    expect((await api("PATCH", `/team/${teamA}/`, staff.token, { name: "Views A renamed" })).status).toBe(200);
    await expectFresh(api, world, [alice, alex]);
    expect((await served(api, alice)).team).toMatchObject({ name: "Views A renamed", solves: expect.arrayContaining([expect.objectContaining({ solved_by_name: "alex-renamed-by-staff" })]) });
  });
});

describe("the own profile and own team views on two server copies", () => {
  let world: TestWorld;
  let copies: ServerCopy[] = [];
  const sockets: RecordingSocket[] = [];

  beforeAll(async () => {
    world = await createTestWorld();
    const redisUrl = testRedisUrl(inject("redisUrl"));
    const start = () => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: redisUrl });
    copies = await Promise.all([start(), start()]);
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(copies.map((copy) => copy.stop()));
    await world.close();
  });

  const apiOn =
    (copy: ServerCopy): Api =>
    async (method, path, token, body) => {
      const res = await fetch(`${copy.url}/api/v2${path}`, {
        method,
        headers: { authorization: `Token ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as { m: string; d: any } };
    };

  /** A socket on `copy` in the user's team channel: once it has an event, that copy has handled it. */
  async function teamSocket(copy: ServerCopy, user: TestUser): Promise<RecordingSocket> {
    const socket = await openSocket(`ws://127.0.0.1:${copy.port}/api/v2/ws/`);
    sockets.push(socket);
    await socket.waitFor((e) => e.event_code === 0);
    socket.send({ token: user.token });
    // The contract has no reply to the token: a wrong flag of the team proves the socket joined.
    const category = await createCategory(world);
    const probe = await createChallenge(world, category.id, { score: 1 });
    for (let attempt = 0; ; attempt++) {
      await apiOn(copy)("POST", "/challenges/submit_flag/", user.token, { challenge: probe.id, flag: `flag{probe-${attempt}}` });
      const joined = await socket.waitFor((e) => e.event_code === 2 && e.challenge_id === probe.id, 500).then(
        () => true,
        () => false,
      );
      if (joined) return socket;
      expect(attempt).toBeLessThan(20);
    }
  }

  it("drop a team's views on the other copy when it solves or sends a wrong flag there", async () => {
    const [a, b] = copies as [ServerCopy, ServerCopy];
    const { db } = world.services;
    const team = (await db.team.create({ data: { name: "Copies", password: "copies-secret" } })).id;
    const dana = await createUser(world, { teamId: team });
    const dave = await createUser(world, { teamId: team });
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id, { score: 300 });
    const onB = await teamSocket(b, dave);

    await expectFresh(apiOn(b), world, [dana, dave]);
    expect((await apiOn(a)("POST", "/challenges/submit_flag/", dana.token, { challenge: challenge.id, flag: "flag{nope}" })).body.m).toBe("incorrect_flag");
    await onB.waitFor((e) => e.event_code === 2 && e.challenge_id === challenge.id);
    await expectFresh(apiOn(b), world, [dana, dave]);

    // Wrong flags on both copies at once, from both members, with both copies' views held: each
    // copy settles on the true counts (the highest total heard), with no view read again.
    await expectFresh(apiOn(a), world, [dana, dave]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => apiOn(i % 2 ? a : b)("POST", "/challenges/submit_flag/", (i % 3 ? dana : dave).token, { challenge: challenge.id, flag: `flag{nope-${i}}` })),
    );
    expect(answers.every((r) => r.body.m === "incorrect_flag")).toBe(true);
    const count = async (copy: ServerCopy, user: TestUser) => ((await served(apiOn(copy), user)).team as { incorrect_solves: number }).incorrect_solves;
    // 22: the socket's probe (teamSocket), the first wrong flag and these twenty.
    await expect.poll(() => count(a, dana)).toBe(22);
    await expect.poll(() => count(b, dave)).toBe(22);
    await expectFresh(apiOn(a), world, [dana, dave]);
    await expectFresh(apiOn(b), world, [dana, dave]);

    expect((await apiOn(a)("POST", "/challenges/submit_flag/", dana.token, { challenge: challenge.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await onB.waitFor((e) => e.event_code === 1 && e.challenge_id === challenge.id);
    await expectFresh(apiOn(b), world, [dana, dave]);
    expect((await served(apiOn(b), dave)).team).toMatchObject({ points: 300, solves: [expect.objectContaining({ challenge: challenge.id })] });
  });

  it("drop the views of every team a decay re-scoring on the other copy moved, and keep the others'", async () => {
    const [a, b] = copies as [ServerCopy, ServerCopy];
    const { db } = world.services;
    const first = (await db.team.create({ data: { name: "Early birds", password: "copies-secret" } })).id;
    const second = (await db.team.create({ data: { name: "Late comers", password: "copies-secret" } })).id;
    const bystanders = (await db.team.create({ data: { name: "Bystanders", password: "copies-secret" } })).id;
    const early = await createUser(world, { teamId: first });
    const late = await createUser(world, { teamId: second });
    const watcher = await createUser(world, { teamId: bystanders });
    const category = await createCategory(world);
    const decaying = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 100 } });
    const onA = await teamSocket(a, watcher);

    expect((await apiOn(a)("POST", "/challenges/submit_flag/", early.token, { challenge: decaying.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await onA.waitFor((e) => e.event_code === 1 && e.challenge_id === decaying.id && e.team === first);
    // Copy A holds all three views, the early team's with the full 500 points.
    await expectFresh(apiOn(a), world, [early, late, watcher]);
    expect((await served(apiOn(a), early)).team).toMatchObject({ points: 500 });
    const kept = await served(apiOn(a), watcher);

    // The second solve, on copy B, re-scores the first: copy A drops the early team's views.
    expect((await apiOn(b)("POST", "/challenges/submit_flag/", late.token, { challenge: decaying.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
    await onA.waitFor((e) => e.event_code === 1 && e.challenge_id === decaying.id && e.team === second);
    await expectFresh(apiOn(a), world, [early, late, watcher]);
    expect((await served(apiOn(a), early)).team).toMatchObject({ points: 300, solves: [expect.objectContaining({ points: 300 })] });
    expect((await served(apiOn(a), early)).self).toMatchObject({ points: 300 });
    expect(await served(apiOn(a), watcher)).toEqual(kept);
  });
});
