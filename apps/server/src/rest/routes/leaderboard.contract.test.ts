import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, recordSolve, seedChallenges, type TestUser } from "@flagship/api/testing";
import { createTestServer, type TestServer } from "../../testing.ts";

let server: TestServer;
let staff: TestUser;
let player: TestUser;
let hardName: string;
const at = new Date(Date.UTC(2030, 0, 1, 12));

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.world.services;
  staff = await createUser(server.world, { isStaff: true });
  const teams = await Promise.all(["alpha", "bravo", "charlie"].map((name) => db.team.create({ data: { name, password: "secretsecret" } })));
  const members = await Promise.all(teams.map((t) => createUser(server.world, { teamId: t.id })));
  player = members[0]!;
  const [easy, hard] = await seedChallenges(server.world, [100, 500]);
  const [tiny] = await seedChallenges(server.world, [50]);
  hardName = hard!.name;
  await recordSolve(server.world, { userId: members[1]!.id, teamId: teams[1]!.id, challenge: hard!, at });
  await recordSolve(server.world, { userId: members[0]!.id, teamId: teams[0]!.id, challenge: easy!, at: new Date(at.getTime() + 60_000) });
  await recordSolve(server.world, { userId: members[2]!.id, teamId: teams[2]!.id, challenge: tiny!, at: new Date(at.getTime() + 120_000) });
});
afterAll(() => server.close());

describe("GET /leaderboard/team/ and /leaderboard/user/", () => {
  it("pages the team board with absolute next and previous links", async () => {
    const res = await server.api("GET", "/leaderboard/team/?limit=1&offset=1");
    expect(res.status).toBe(200);
    expect(res.body.d.count).toBe(3);
    expect(res.body.d.total).toBe(3);
    expect(res.body.d.results).toEqual([{ id: expect.any(Number), name: "alpha", leaderboard_points: 100, leaderboard_group_name: null }]);
    expect(res.body.d.next).toMatch(/^http:\/\/.+\/api\/v2\/leaderboard\/team\/\?limit=1&offset=2$/);
    expect(res.body.d.previous).toMatch(/offset=0$/);
  });
  it("answers the user board with usernames", async () => {
    const res = await server.api("GET", "/leaderboard/user/");
    expect(res.body.d.results[0]).toEqual({ id: expect.any(Number), username: expect.any(String), leaderboard_points: 500 });
    expect(res.body.d.next).toBeNull();
  });
});

describe("GET /leaderboard/graph/", () => {
  it("answers user and team series", async () => {
    const res = await server.api("GET", "/leaderboard/graph/");
    expect(res.body.d.team).toContainEqual({ points: 500, timestamp: at.toISOString(), team_name: "bravo", leaderboard_group_name: null });
    expect(res.body.d.user[0]).toEqual({ points: expect.any(Number), timestamp: expect.any(String), user_name: expect.any(String) });
  });
});

describe("GET /leaderboard/matrix/", () => {
  it("answers teams with their solved challenge ids", async () => {
    const res = await server.api("GET", "/leaderboard/matrix/");
    expect(res.body.d.results[0]).toEqual({ id: expect.any(Number), name: "bravo", leaderboard_points: 500, solve_ids: [expect.any(Number)] });
  });
});

describe("GET /leaderboard/ctftime/", () => {
  it("answers the raw CTFtime feed without the envelope", async () => {
    const res = await server.api("GET", "/leaderboard/ctftime/");
    const feed = res.body as unknown as { standings: any[]; tasks: string[] };
    expect(feed.tasks).toHaveLength(3);
    expect(feed.standings[0]).toEqual({
      pos: 1,
      team: "bravo",
      score: 500,
      taskStats: { [hardName]: { points: 500, time: at.getTime() / 1000 } },
      lastAccept: at.getTime() / 1000,
    });
    expect(feed.standings.map((s) => s.pos)).toEqual([1, 2, 3]);
  });
  it("is {} when enable_ctftime is off", async () => {
    await server.api("POST", "/config/enable_ctftime/", { token: staff.token, body: { value: false } });
    expect((await server.api("GET", "/leaderboard/ctftime/")).body).toEqual({});
    await server.api("POST", "/config/enable_ctftime/", { token: staff.token, body: { value: true } });
  });
});

describe("a hidden scoreboard", () => {
  it("answers d: {} to players and the real board to staff", async () => {
    await server.api("POST", "/config/enable_scoreboard/", { token: staff.token, body: { value: false } });
    for (const path of ["/leaderboard/user/", "/leaderboard/team/", "/leaderboard/graph/", "/leaderboard/matrix/"]) {
      const res = await server.api("GET", path, { token: player.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ s: true, m: "", d: {} });
    }
    expect((await server.api("GET", "/leaderboard/ctftime/")).body).toEqual({});
    expect((await server.api("GET", "/leaderboard/team/", { token: staff.token })).body.d.count).toBe(3);
    await server.api("POST", "/config/enable_scoreboard/", { token: staff.token, body: { value: true } });
  });
});

describe("GET /stats/stats/ and /stats/full/", () => {
  it("answers the public counts", async () => {
    const res = await server.api("GET", "/stats/stats/");
    expect(res.body.d).toEqual({ user_count: 4, team_count: 3, solve_count: 3, correct_solve_count: 3, avg_members: 1 });
  });
  it("answers the full statistics to staff only", async () => {
    const res = await server.api("GET", "/stats/full/", { token: staff.token });
    expect(res.body.d).toMatchObject({ users: { all: 4, confirmed: 4 }, teams: 3, total_points: 650, team_point_distribution: { "50": 1, "100": 1, "500": 1 } });
    expect(Object.keys(res.body.d.challenges)).toHaveLength(3);
    expect((await server.api("GET", "/stats/full/", { token: player.token })).status).toBe(403);
    expect((await server.api("GET", "/stats/full/")).status).toBe(401);
  });
});

describe("the leaderboard throttle", () => {
  it("answers 429 throttled to a REST reader past the leaderboard rate", async () => {
    const throttled = await createTestServer({ THROTTLE: "on", THROTTLE_RATES: "leaderboard=2/min" });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push(await throttled.api("GET", "/leaderboard/team/"));
      expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(statuses[2]!.body).toEqual({ s: false, m: "throttled", d: "" });
    } finally {
      await throttled.close();
    }
  });
});
