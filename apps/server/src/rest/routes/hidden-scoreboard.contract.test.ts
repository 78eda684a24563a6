import { callerFor, createUser, recordSolve, seedChallenges, type TestUser } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../../testing.ts";

/**
 * With enable_scoreboard off, nobody's points or solves can be read from team and member pages
 * (REST and tRPC) except one's own team's; staff see everything. Staff are never on a board.
 */
let server: TestServer;
let staff: TestUser;
let alice: TestUser;
let alex: TestUser;
let bob: TestUser;
let teamA: number;
let teamB: number;

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.world.services;
  teamA = (await db.team.create({ data: { name: "Alphas", password: "secretsecret" } })).id;
  teamB = (await db.team.create({ data: { name: "Bravos", password: "secretsecret" } })).id;
  alice = await createUser(server.world, { teamId: teamA, username: "alice" });
  alex = await createUser(server.world, { teamId: teamA, username: "alex" });
  bob = await createUser(server.world, { teamId: teamB, username: "bob" });
  staff = await createUser(server.world, { isStaff: true, username: "zz-staff" });
  const staffTeam = (await db.team.create({ data: { name: "Staff Team", password: "secretsecret" } })).id;
  await db.user.update({ where: { id: staff.id }, data: { teamId: staffTeam } });
  const [c100, c300, c900] = await seedChallenges(server.world, [100, 300, 900]);
  const at = new Date(Date.UTC(2030, 0, 1));
  await recordSolve(server.world, { userId: alex.id, teamId: teamA, challenge: c100!, at });
  await recordSolve(server.world, { userId: bob.id, teamId: teamB, challenge: c300!, at });
  await recordSolve(server.world, { userId: staff.id, teamId: staffTeam, challenge: c900!, at });
  await db.incorrectAttempt.create({ data: { teamId: teamB, userId: bob.id, challengeId: c100!.id, flag: "nope" } });
});
afterAll(() => server.close());

const setScoreboard = async (value: boolean) => server.api("POST", "/config/enable_scoreboard/", { token: staff.token, body: { value } });

describe("a hidden scoreboard", () => {
  it("shows a player their own team's points and solves, and no one else's", async () => {
    await setScoreboard(false);
    try {
      const teams = await server.api("GET", "/team/", { token: alice.token });
      const points = Object.fromEntries(teams.body.d.results.map((t: { name: string; leaderboard_points: number }) => [t.name, t.leaderboard_points]));
      expect(points).toMatchObject({ Alphas: 100, Bravos: 0 });

      const other = await server.api("GET", `/team/${teamB}/`, { token: alice.token });
      expect(other.body.d).toMatchObject({ name: "Bravos", points: 0, leaderboard_points: 0, solves: [], incorrect_solves: 0 });
      const own = await server.api("GET", `/team/${teamA}/`, { token: alice.token });
      expect(own.body.d).toMatchObject({ points: 100, leaderboard_points: 100, solves: [expect.objectContaining({ points: 100 })] });
      expect((await server.api("GET", "/team/self/", { token: alice.token })).body.d).toMatchObject({ points: 100 });

      const bobsPage = await server.api("GET", `/member/${bob.id}/`, { token: alice.token });
      expect(bobsPage.body.d).toMatchObject({ username: "bob", points: 0, leaderboard_points: 0, solves: [], incorrect_solves: 0 });
      const teammate = await server.api("GET", `/member/${alex.id}/`, { token: alice.token });
      expect(teammate.body.d).toMatchObject({ points: 100, solves: [expect.objectContaining({ points: 100 })] });

      // Ordering by points would rank everyone: it falls back to usernames.
      const members = await server.api("GET", "/member/?ordering=-leaderboard_points", { token: alice.token });
      const rows = members.body.d.results as { username: string; leaderboard_points: number }[];
      expect(rows.map((m) => m.username)).toEqual([...rows.map((m) => m.username)].sort());
      expect(Object.fromEntries(rows.map((m) => [m.username, m.leaderboard_points]))).toMatchObject({ alex: 100, alice: 0, bob: 0, "zz-staff": 0 });

      // Anonymous readers see no one's.
      const anonymous = await server.api("GET", `/team/${teamA}/`);
      expect(anonymous.body.d).toMatchObject({ points: 0, solves: [] });

      // The tRPC profile and team charts likewise.
      const caller = callerFor(server.world, alice);
      expect(await caller.users.stats({ id: bob.id })).toMatchObject({ correct: 0, incorrect: 0, score: [] });
      expect(await caller.users.stats({ id: alex.id })).toMatchObject({ correct: 1 });
      const bravoStats = await caller.teams.stats({ id: teamB });
      expect(bravoStats).toMatchObject({ correct: 0, incorrect: 0, score: [], members: [{ username: "bob", points: 0 }] });
      expect((await caller.teams.stats({ id: teamA })).correct).toBe(1);
    } finally {
      await setScoreboard(true);
    }
  });

  it("shows staff everything, and everyone everything once the scoreboard is on", async () => {
    await setScoreboard(false);
    try {
      expect((await server.api("GET", `/team/${teamB}/`, { token: staff.token })).body.d).toMatchObject({ points: 300, incorrect_solves: 1 });
      expect((await server.api("GET", `/member/${bob.id}/`, { token: staff.token })).body.d).toMatchObject({ points: 300 });
    } finally {
      await setScoreboard(true);
    }
    expect((await server.api("GET", `/team/${teamB}/`, { token: alice.token })).body.d).toMatchObject({ points: 300, incorrect_solves: 1 });
    expect((await server.api("GET", `/member/${bob.id}/`)).body.d).toMatchObject({ points: 300, solves: [expect.objectContaining({ points: 300 })] });
  });
});

describe("staff accounts", () => {
  it("never appear on the public boards, whoever reads them", async () => {
    for (const token of [alice.token, staff.token, undefined]) {
      const users = await server.api("GET", "/leaderboard/user/", { ...(token && { token }) });
      expect(users.body.d.results.map((u: { username: string }) => u.username)).not.toContain("zz-staff");
      const graph = await server.api("GET", "/leaderboard/graph/", { ...(token && { token }) });
      expect(graph.body.d.user.map((p: { user_name: string }) => p.user_name)).not.toContain("zz-staff");
    }
    expect((await server.api("GET", "/leaderboard/user/")).body.d.results.map((u: { username: string }) => u.username)).toEqual(["bob", "alex", "alice"]);
  });
});
