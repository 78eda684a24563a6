import { createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { openSocket, type RecordingSocket } from "../../realtime/ws-client.ts";
import { type ServerCopy, startServerCopy } from "../../testing.ts";

/**
 * The leaderboard pages are maintained in each server copy (patched by the solve events rather
 * than rebuilt). Two copies behind one Redis: a solve on either shows on the next read from both,
 * as soon as the copy has the event (its sockets have it); a team hidden by staff, or the
 * scoreboard switched off, never leaves a stale page behind.
 */
let world: TestWorld;
let copies: ServerCopy[] = [];
let sockets: RecordingSocket[] = [];
let staff: TestUser;
let teams: TestTeam[];
let category: { id: number };

beforeAll(async () => {
  world = await createTestWorld();
  const redisUrl = testRedisUrl(inject("redisUrl"));
  const start = () => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: redisUrl });
  copies = await Promise.all([start(), start()]);
  // One socket per copy: the public channel hears every solve of a visible challenge.
  sockets = await Promise.all(copies.map((copy) => openSocket(`ws://127.0.0.1:${copy.port}/api/v2/ws/`)));
  staff = await createUser(world, { isStaff: true });
  category = await createCategory(world);
  teams = [];
  for (let i = 0; i < 3; i++) teams.push(await createTeamWith(world, 1));
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

async function call(copy: ServerCopy, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: { s: boolean; m: string; d: any } }> {
  const res = await fetch(`${copy.url}/api/v2${path}`, {
    method,
    headers: { ...(token && { authorization: `Token ${token}` }), ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { s: boolean; m: string; d: any } };
}

/** The team board's first page as a copy serves it: [team id, points] in order. */
async function board(copy: ServerCopy, token?: string): Promise<[number, number][]> {
  const res = await call(copy, "GET", "/leaderboard/team/?limit=100", token);
  expect(res.status).toBe(200);
  return (res.body.d.results as { id: number; leaderboard_points: number }[]).map((r) => [r.id, r.leaderboard_points]);
}

/** Solves a new challenge worth `score` on `copy`, and waits until both copies have the event. */
async function solveOn(copy: ServerCopy, user: TestUser, score: number): Promise<void> {
  const challenge = await createChallenge(world, category.id, { score });
  expect((await call(copy, "POST", "/challenges/submit_flag/", user.token, { challenge: challenge.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
  await Promise.all(sockets.map((socket) => socket.waitFor((e) => e.event_code === 1 && e.challenge_id === challenge.id)));
}

/** The board as the database has it (visible teams, in board order). */
async function truth(): Promise<[number, number][]> {
  const rows = await world.services.db.team.findMany({
    where: { isVisible: true },
    select: { id: true, leaderboardPoints: true },
    orderBy: [{ leaderboardPoints: "desc" }, { lastScoreAt: { sort: "asc", nulls: "last" } }, { id: "asc" }],
  });
  return rows.map((r) => [r.id, r.leaderboardPoints]);
}

describe("the maintained leaderboard on two server copies", () => {
  it("shows a solve made on either copy on the next read from both", async () => {
    const [a, b] = copies as [ServerCopy, ServerCopy];
    // Both copies hold their boards before the solves.
    expect(await board(a)).toEqual(await truth());
    expect(await board(b)).toEqual(await truth());

    await solveOn(a, teams[0]!.members[0]!, 300);
    expect(await board(b)).toEqual(await truth());
    expect(await board(a)).toEqual(await truth());
    expect((await board(b))[0]).toEqual([teams[0]!.id, 300]);

    await solveOn(b, teams[1]!.members[0]!, 500);
    expect(await board(a)).toEqual(await truth());
    expect(await board(b)).toEqual(await truth());
    expect((await board(a))[0]).toEqual([teams[1]!.id, 500]);

    // Decay re-scoring moves every earlier solver on both copies.
    const decay = await createChallenge(world, category.id, { score: 400, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 50 } });
    for (const [copy, team] of [
      [a, teams[0]!],
      [b, teams[2]!],
    ] as const) {
      expect((await call(copy, "POST", "/challenges/submit_flag/", team.members[0]!.token, { challenge: decay.id, flag: "flag{right}" })).body.m).toBe("correct_flag");
      await Promise.all(sockets.map((socket) => socket.waitFor((e) => e.event_code === 1 && e.challenge_id === decay.id && e.team === team.id)));
    }
    expect(await board(a)).toEqual(await truth());
    expect(await board(b)).toEqual(await truth());
  });

  it("never serves a stale page after a team is hidden or the scoreboard is switched off on the other copy", async () => {
    const [a, b] = copies as [ServerCopy, ServerCopy];
    const hidden = teams[1]!;
    expect((await board(b)).some(([id]) => id === hidden.id)).toBe(true);
    expect((await call(a, "PATCH", `/team/${hidden.id}/`, staff.token, { is_visible: false })).status).toBe(200);
    // Events from one copy arrive in order: once B has this later solve, it has the change too.
    await solveOn(a, teams[2]!.members[0]!, 10);
    expect(await board(b)).toEqual(await truth());
    expect((await board(b)).some(([id]) => id === hidden.id)).toBe(false);
    expect((await board(a)).some(([id]) => id === hidden.id)).toBe(false);

    const player = teams[0]!.members[0]!;
    expect((await call(a, "POST", "/config/enable_scoreboard/", staff.token, { value: false })).body.s).toBe(true);
    try {
      expect((await call(a, "GET", "/leaderboard/team/", player.token)).body.d).toEqual({});
      await solveOn(a, teams[2]!.members[0]!, 20);
      expect((await call(b, "GET", "/leaderboard/team/", player.token)).body.d).toEqual({});
    } finally {
      expect((await call(a, "POST", "/config/enable_scoreboard/", staff.token, { value: true })).body.s).toBe(true);
    }
    await solveOn(a, teams[0]!.members[0]!, 30);
    expect(await board(b, player.token)).toEqual(await truth());
  });
});
