import { createUser, type TestUser, uniqueName } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { createContractServer, useContractServer } from "../../testing.ts";

const { server, staff } = await useContractServer();

async function setConfig(key: string, value: unknown) {
  const res = await server.api("POST", `/config/${key}/`, { token: staff.token, body: { value } });
  expect(res.status).toBe(201);
}

async function newTeam(owner: TestUser, password = "team-secret-1") {
  const res = await server.api("POST", "/team/create/", { token: owner.token, body: { name: uniqueName("Team"), password } });
  expect(res.status).toBe(201);
  return res.body.d as { id: number; name: string; password: string };
}

describe("POST /team/create/", () => {
  it("answers 201 with the team, owned by the caller", async () => {
    const owner = await createUser(server.world);
    const name = uniqueName("Created");
    const res = await server.api("POST", "/team/create/", { token: owner.token, body: { name, password: "abcdefgh" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ s: true, m: "", d: { name, password: "abcdefgh", owner: owner.id, description: "", members: [{ id: owner.id, username: owner.username }], solves: [], incorrect_solves: 0, points: 0, leaderboard_points: 0, is_visible: true } });
    expect(typeof res.body.d.id).toBe("number");
  });

  it("answers the contract's failures", async () => {
    const owner = await createUser(server.world);
    const team = await newTeam(owner);
    expect((await server.api("POST", "/team/create/", { token: owner.token, body: { name: uniqueName("x"), password: "abcdefgh" } })).body).toEqual({ s: false, m: "already_in_team", d: "" });

    const other = await createUser(server.world);
    const taken = await server.api("POST", "/team/create/", { token: other.token, body: { name: team.name.toLowerCase(), password: "abcdefgh" } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ s: false, m: "unique", d: { name: ["A team with that name already exists."] } });
    const long = await server.api("POST", "/team/create/", { token: other.token, body: { name: "n".repeat(37), password: "abcdefgh" } });
    expect([long.status, long.body.m]).toEqual([400, "max_length"]);
    const short = await server.api("POST", "/team/create/", { token: other.token, body: { name: uniqueName("y"), password: "abc" } });
    expect([short.status, short.body.m, short.body.d]).toEqual([400, "min_length", { password: ["Ensure this field has at least 8 characters."] }]);
    const missing = await server.api("POST", "/team/create/", { token: other.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ s: false, m: "required", d: { name: ["This field is required"], password: ["This field is required"] } });
    expect((await server.api("POST", "/team/create/", { body: { name: "x", password: "abcdefgh" } })).status).toBe(401);
  });
});

describe("POST /team/join/", () => {
  it("joins with the right name and secret", async () => {
    const owner = await createUser(server.world);
    const team = await newTeam(owner, "join-me-please");
    const joiner = await createUser(server.world);
    const res = await server.api("POST", "/team/join", { token: joiner.token, body: { name: team.name.toUpperCase(), password: "join-me-please" } });
    expect(res.status).toBe(200);
    expect(res.body.s).toBe(true);
    expect(res.body.d.members.map((m: { id: number }) => m.id)).toEqual([owner.id, joiner.id]);
    expect(server.world.events).toContainEqual(expect.objectContaining({ audience: { teamId: team.id }, payload: expect.objectContaining({ event_code: 4, user: joiner.id }) }));
  });

  it("checks in the contract's order", async () => {
    const owner = await createUser(server.world);
    const team = await newTeam(owner, "ordered-secret");
    const free = await createUser(server.world);
    const call = (user: TestUser, body: unknown) => server.api("POST", "/team/join/", { token: user.token, body });

    await setConfig("enable_teams", false);
    await setConfig("enable_team_join", false);
    expect(await call(owner, {})).toMatchObject({ status: 403, body: { s: false, m: "permission_denied" } });
    await setConfig("enable_teams", true);
    expect(await call(owner, {})).toMatchObject({ status: 403, body: { m: "join_disabled" } });
    await setConfig("enable_team_join", true);
    expect(await call(owner, {})).toMatchObject({ status: 403, body: { m: "already_in_team" } });
    expect(await call(free, { name: team.name })).toMatchObject({ status: 400, body: { m: "required", d: { password: ["This field is required"] } } });
    expect(await call(free, { name: uniqueName("ghost"), password: "x" })).toMatchObject({ status: 404, body: { m: "invalid_team" } });
    expect(await call(free, { name: team.name, password: "wrong" })).toMatchObject({ status: 403, body: { m: "invalid_team_password" } });
    await setConfig("team_size", 1);
    expect(await call(free, { name: team.name, password: "ordered-secret" })).toMatchObject({ status: 403, body: { m: "team_full" } });
    await setConfig("team_size", 0);
    expect(await call(free, { name: team.name, password: "ordered-secret" })).toMatchObject({ status: 200 });
  });
});

describe("POST /team/join/ with throttles on (the contract's rate: 10 wrong passwords a minute, per account and per team)", () => {
  it("answers 429 throttled with Retry-After past the rate, to right passwords too, for the account and the team; staff see the blocks in the audit log", async () => {
    const guarded = await createContractServer({ THROTTLE: "on" });
    try {
      const { server: s, staff: admin } = guarded;
      const join = (user: TestUser, name: string, password: string) => s.api("POST", "/team/join/", { token: user.token, body: { name, password } });
      const create = async (password: string) => (await s.api("POST", "/team/create/", { token: (await createUser(s.world)).token, body: { name: uniqueName("Guarded"), password } })).body.d as { id: number; name: string };
      const target = await create("the-real-secret");
      const elsewhere = await create("other-secret");
      const guesser = await createUser(s.world);
      // The windows are whole minutes: keep the burst inside one.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute));

      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => join(guesser, target.name, `guess-${i}`)));
      expect(burst.filter((r) => r.status === 403).map((r) => r.body.m)).toEqual(Array(10).fill("invalid_team_password"));
      const refused = burst.filter((r) => r.status === 429);
      expect(refused).toHaveLength(20);
      for (const r of refused) {
        expect(r.body).toEqual({ s: false, m: "throttled", d: "" });
        expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
        expect(Number(r.headers["retry-after"])).toBeLessThanOrEqual(60);
      }

      // Blocked: the right password waits too, from this account (at any team) and at this team (from any account).
      const right = await join(guesser, target.name, "the-real-secret");
      expect({ status: right.status, m: right.body.m }).toEqual({ status: 429, m: "throttled" });
      expect(Number(right.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect((await join(guesser, elsewhere.name, "other-secret")).status).toBe(429);
      const bystander = await createUser(s.world);
      expect((await join(bystander, target.name, "the-real-secret")).status).toBe(429);
      const trpc = await s.app.inject({ method: "POST", url: "/trpc/teams.join", headers: { authorization: `Token ${bystander.token}`, "content-type": "application/json" }, payload: { json: { name: target.name, password: "the-real-secret" } } });
      expect(trpc.statusCode).toBe(429);
      expect(Number(trpc.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(trpc.json()).toMatchObject({ error: { json: { data: { appCode: "throttled" }, message: expect.stringMatching(/^Too many wrong guesses\. Try again in \d+ seconds?\.$/) } } });
      expect(await s.world.services.db.user.count({ where: { teamId: target.id } })).toBe(1);
      // Others are not held up.
      expect((await join(bystander, elsewhere.name, "other-secret")).status).toBe(200);

      const log = await s.api("GET", "/admin/audit_log/", { token: admin.token });
      const blocks = log.body.d.filter((e: { action: string }) => e.action === "team_join_throttled");
      expect(blocks.map((e: { user: number; extra: { blocked: string } }) => [e.user, e.extra.blocked]).sort()).toEqual([
        [guesser.id, "account"],
        [guesser.id, "team"],
      ]);
      expect(blocks[0].extra).toMatchObject({ user: guesser.id, team: target.id, team_name: target.name, failures: 10, wait_seconds: 60 });
    } finally {
      await guarded.server.close();
    }
  }, 90_000);
});

describe("POST /team/leave/", () => {
  it("answers leave_disabled, challenge_solved, cannot_leave_team_ownerless, then leaves", async () => {
    const owner = await createUser(server.world);
    const team = await newTeam(owner, "leaving-secret");
    const member = await createUser(server.world);
    await server.api("POST", "/team/join/", { token: member.token, body: { name: team.name, password: "leaving-secret" } });
    expect(await server.api("POST", "/team/leave/", { token: member.token })).toMatchObject({ status: 403, body: { m: "leave_disabled" } });
    await setConfig("enable_team_leave", true);
    try {
      const category = await server.world.services.db.category.create({ data: { name: uniqueName("Cat") } });
      const challenge = await server.world.services.db.challenge.create({ data: { name: uniqueName("Chal"), categoryId: category.id, score: 10 } });
      const solver = await createUser(server.world, { teamId: team.id });
      await server.world.services.db.solve.create({ data: { teamId: team.id, userId: solver.id, challengeId: challenge.id, points: 10 } });
      expect(await server.api("POST", "/team/leave/", { token: solver.token })).toMatchObject({ status: 403, body: { m: "challenge_solved" } });
      expect(await server.api("POST", "/team/leave/", { token: owner.token })).toMatchObject({ status: 403, body: { m: "cannot_leave_team_ownerless" } });
      expect(await server.api("POST", "/team/leave/", { token: member.token })).toMatchObject({ status: 200, body: { s: true, m: "", d: "" } });
      expect((await server.api("GET", "/team/self/", { token: member.token })).status).toBe(404);

      const loner = await createUser(server.world);
      const solo = await newTeam(loner);
      expect((await server.api("POST", "/team/leave/", { token: loner.token })).status).toBe(200);
      expect((await server.api("GET", `/team/${solo.id}/`, { token: staff.token })).status).toBe(404);
    } finally {
      await setConfig("enable_team_leave", false);
    }
  });
});

describe("GET and PATCH /team/self/", () => {
  it("is 404 without a team and the team with its secret otherwise", async () => {
    const user = await createUser(server.world);
    expect(await server.api("GET", "/team/self/", { token: user.token })).toMatchObject({ status: 404, body: { s: false, m: "not_found" } });
    const team = await newTeam(user, "self-secret-1");
    const res = await server.api("GET", "/team/self/", { token: user.token });
    expect(res.body.d).toMatchObject({ id: team.id, name: team.name, password: "self-secret-1", owner: user.id, members: [{ id: user.id, username: user.username }] });
    expect((await server.api("GET", "/team/self/")).status).toBe(401);
  });

  it("lets only the owner edit, and transfer ownership", async () => {
    const owner = await createUser(server.world);
    const team = await newTeam(owner, "patch-secret");
    const member = await createUser(server.world);
    await server.api("POST", "/team/join/", { token: member.token, body: { name: team.name, password: "patch-secret" } });
    expect(await server.api("PATCH", "/team/self/", { token: member.token, body: { description: "no" } })).toMatchObject({ status: 403, body: { m: "permission_denied" } });
    // Ownership is checked before the body: a non-owner is refused even for an invalid one.
    expect(await server.api("PATCH", "/team/self/", { token: member.token, body: { name: "" } })).toMatchObject({ status: 403, body: { m: "permission_denied" } });
    const edited = await server.api("PATCH", "/team/self/", { token: owner.token, body: { description: "Hello", password: "another-secret" } });
    expect(edited).toMatchObject({ status: 200, body: { d: { description: "Hello", password: "another-secret" } } });
    expect(await server.api("PATCH", "/team/self/", { token: owner.token, body: { name: "" } })).toMatchObject({ status: 400, body: { m: "blank" } });
    expect(await server.api("PATCH", "/team/self/", { token: owner.token, body: { owner: staff.id } })).toMatchObject({ status: 400, body: { m: "invalid" } });
    expect(await server.api("PATCH", "/team/self/", { token: owner.token, body: { owner: member.id } })).toMatchObject({ status: 200, body: { d: { owner: member.id } } });
    expect((await server.api("PATCH", "/team/self/", { token: owner.token, body: { description: "x" } })).status).toBe(403);
  });
});

describe("GET /team/ and /team/{id}/", () => {
  it("lists teams by name, paged, with member counts and absolute next links", async () => {
    const prefix = uniqueName("paged");
    for (const suffix of ["b", "a", "c"]) await server.world.services.db.team.create({ data: { name: `${prefix}-${suffix}`, password: "x".repeat(8) } });
    const res = await server.api("GET", `/team/?search=${prefix}&limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.d).toMatchObject({ count: 3, total: 3, previous: null });
    expect(res.body.d.next).toMatch(/^http:\/\/[^/]+\/api\/v2\/team\/\?search=.*limit=2&offset=2$/);
    expect(res.body.d.results.map((t: { name: string }) => t.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
    expect(res.body.d.results[0]).toMatchObject({ members: 0 });
    expect(Object.keys(res.body.d.results[0])).toEqual(expect.arrayContaining(["id", "name", "members"]));
  });

  it("shows a team without its secret, hides invisible teams from non-staff, and lets staff edit (audited)", async () => {
    const owner = await createUser(server.world);
    const team = await newTeam(owner);
    const player = await createUser(server.world);
    const res = await server.api("GET", `/team/${team.id}/`, { token: player.token });
    expect(res.status).toBe(200);
    expect(res.body.d).not.toHaveProperty("password");
    expect(res.body.d).toMatchObject({ id: team.id, name: team.name, owner: owner.id });

    expect((await server.api("PATCH", `/team/${team.id}/`, { token: player.token, body: { is_visible: false } })).status).toBe(403);
    const patched = await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { is_visible: false, description: "Hidden" } });
    expect(patched).toMatchObject({ status: 200, body: { d: { is_visible: false, description: "Hidden" } } });
    expect(patched.body.d).not.toHaveProperty("password");
    expect(await server.world.services.db.auditLog.count({ where: { action: "edit_team", userId: staff.id } })).toBeGreaterThan(0);

    expect((await server.api("GET", `/team/${team.id}/`, { token: player.token })).status).toBe(404);
    expect((await server.api("GET", `/team/${team.id}/`)).status).toBe(404);
    // The contract gives /team/{id}/ without password to everyone, staff included.
    const asStaff = await server.api("GET", `/team/${team.id}/`, { token: staff.token });
    expect(asStaff.status).toBe(200);
    expect(asStaff.body.d).not.toHaveProperty("password");
    expect((await server.api("GET", `/team/?search=${team.name}`)).body.d.count).toBe(0);
    expect((await server.api("GET", "/team/abc/")).status).toBe(404);
    expect((await server.api("PATCH", "/team/999999/", { token: staff.token, body: { description: "x" } })).status).toBe(404);
  });
});
