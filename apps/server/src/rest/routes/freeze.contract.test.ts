import { createCategory, createChallenge, createTeamWith, type TestTeam, type TestUser } from "@flagship/api/testing";
import { challengeValue } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractServer, type TestServer } from "../../testing.ts";

/**
 * The scoreboard freeze on every REST path, read by a player of a third team and by an anonymous
 * visitor. Team "early" solves a decay challenge before the freeze; after it, team "late" solves it
 * too (its value falls, re-scoring early) and takes first blood of a second challenge; the third
 * team solves the decay challenge after the freeze and sees that solve at the freeze value.
 */

const DECAY = { flag: "flag{right}", decay_constant: 0.5, min_points: 100 };
const value = (solves: number) => challengeValue("decay", 500, solves, DECAY);

let server: TestServer;
let staff: TestUser;
let early: TestTeam;
let late: TestTeam;
let third: TestTeam;
let decay: { id: number; name: string };
let fresh: number;

beforeAll(async () => {
  ({ server, staff } = await createContractServer());
  const { world } = server;
  [early, late, third] = [await createTeamWith(world, 1), await createTeamWith(world, 1), await createTeamWith(world, 1)];
  const category = await createCategory(world);
  decay = await createChallenge(world, category.id, { score: 500, currentScore: 500, pointsType: "decay", flagMetadata: DECAY });
  fresh = (await createChallenge(world, category.id, { score: 100 })).id;
  const submit = async (team: TestTeam, challenge: number) => {
    const res = await server.api("POST", "/challenges/submit_flag/", { token: team.members[0]!.token, body: { challenge, flag: "flag{right}" } });
    expect(res.body.d).toMatchObject({ correct: true });
  };
  await submit(early, decay.id);
  // The freeze falls on the next whole second (config times are in seconds), after early's solve.
  const freeze = Math.ceil(Date.now() / 1000);
  while (Date.now() <= freeze * 1000 + 20) await new Promise((resolve) => setTimeout(resolve, 25));
  expect((await server.api("POST", "/config/scoreboard_freeze_time/", { token: staff.token, body: { value: freeze } })).body.s).toBe(true);
  await submit(late, decay.id);
  await submit(late, fresh);
  await submit(third, decay.id);
}, 60_000);
afterAll(() => server.close());

const readers = () => [
  { who: "a player of a third team", token: third.members[0]!.token },
  { who: "an anonymous visitor", token: undefined },
];

async function get(path: string, token?: string): Promise<any> {
  const res = await server.api("GET", path, { ...(token && { token }) });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.body.d ?? res.body;
}

describe("a frozen scoreboard over REST", () => {
  it("is live for staff", async () => {
    expect((await get(`/team/${late.id}/`, staff.token)).leaderboard_points).toBe(value(3) + 100);
    expect(await get(`/challenges/${decay.id}/`, staff.token)).toMatchObject({ solve_count: 3, current_score: value(3) });
    expect((await get("/stats/stats/", staff.token)).correct_solve_count).toBe(4);
  });

  it("answers every public path as the event stood at the freeze", async () => {
    for (const { who, token } of readers()) {
      const teams = (await get("/leaderboard/team/", token)).results.map((t: any) => [t.name, t.leaderboard_points]);
      expect({ who, teams }).toEqual({ who, teams: [[early.name, value(1)], [late.name, 0], [third.name, 0]] });
      const users = new Map((await get("/leaderboard/user/", token)).results.map((u: any) => [u.id, u.leaderboard_points]));
      expect({ who, late: users.get(late.members[0]!.id), early: users.get(early.members[0]!.id) }).toEqual({ who, late: 0, early: value(1) });
      const graph = await get("/leaderboard/graph/", token);
      expect({ who, teams: graph.team.map((p: any) => p.team_name) }).toEqual({ who, teams: [early.name] });
      const matrix = new Map((await get("/leaderboard/matrix/", token)).results.map((t: any) => [t.id, t.solve_ids]));
      expect({ who, late: matrix.get(late.id) }).toEqual({ who, late: [] });
      const feed = await get("/leaderboard/ctftime/", token);
      const standings = feed.standings.map((t: any) => [t.team, t.score, Object.values(t.taskStats).map((task: any) => task.points)]);
      expect({ who, standings }).toEqual({ who, standings: [[early.name, value(1), [value(1)]], [late.name, 0, []], [third.name, 0, []]] });

      const lateTeam = await get(`/team/${late.id}/`, token);
      expect({ who, points: lateTeam.points, board: lateTeam.leaderboard_points, solves: lateTeam.solves }).toEqual({ who, points: 0, board: 0, solves: [] });
      const earlyTeam = await get(`/team/${early.id}/`, token);
      expect({ who, board: earlyTeam.leaderboard_points, solves: earlyTeam.solves.map((s: any) => s.points) }).toEqual({ who, board: value(1), solves: [value(1)] });
      const teamList = new Map((await get("/team/", token)).results.map((t: any) => [t.id, t.leaderboard_points]));
      expect({ who, early: teamList.get(early.id), late: teamList.get(late.id) }).toEqual({ who, early: value(1), late: 0 });

      const lateMember = await get(`/member/${late.members[0]!.id}/`, token);
      expect({ who, points: lateMember.points, solves: lateMember.solves }).toEqual({ who, points: 0, solves: [] });
      const earlyMember = await get(`/member/${early.members[0]!.id}/`, token);
      expect({ who, points: earlyMember.points, solves: earlyMember.solves.map((s: any) => s.points) }).toEqual({ who, points: value(1), solves: [value(1)] });
      const memberList = new Map((await get("/member/", token)).results.map((m: any) => [m.id, m.leaderboard_points]));
      expect({ who, early: memberList.get(early.members[0]!.id), late: memberList.get(late.members[0]!.id) }).toEqual({ who, early: value(1), late: 0 });

      const stats = await get("/stats/stats/", token);
      expect({ who, correct: stats.correct_solve_count }).toEqual({ who, correct: 1 });
    }
  });

  it("lists challenges as they stood at the freeze, and the team's own later solves at the freeze value", async () => {
    const token = third.members[0]!.token;
    const listed = (await get("/challenges/categories/", token)).flatMap((c: any) => c.challenges);
    expect(listed.find((c: any) => c.id === decay.id)).toMatchObject({ solve_count: 1, current_score: value(1), first_blood: early.name, solved: true });
    expect(listed.find((c: any) => c.id === fresh)).toMatchObject({ solve_count: 0, current_score: 100, first_blood: null, solved: false });
    expect(await get(`/challenges/${fresh}/`, token)).toMatchObject({ solve_count: 0, first_blood: null });
    const own = await get("/team/self/", token);
    expect({ points: own.leaderboard_points, solves: own.solves.map((s: any) => s.points) }).toEqual({ points: value(1), solves: [value(1)] });
    const self = await get("/member/self/", token);
    expect({ points: self.leaderboard_points, solves: self.solves.map((s: any) => s.points) }).toEqual({ points: value(1), solves: [value(1)] });
    // Early's own score does not fall through the decay others caused after the freeze.
    expect((await get("/team/self/", early.members[0]!.token)).leaderboard_points).toBe(value(1));
  });

  it("stays frozen after the end, until staff clear the freeze at the prize-giving", async () => {
    expect((await server.api("POST", "/config/end_time/", { token: staff.token, body: { value: Math.floor(Date.now() / 1000) - 1 } })).body.s).toBe(true);
    for (const { who, token } of readers()) {
      expect({ who, late: (await get(`/team/${late.id}/`, token)).leaderboard_points }).toEqual({ who, late: 0 });
      expect({ who, teams: (await get("/leaderboard/graph/", token)).team.map((p: any) => p.team_name) }).toEqual({ who, teams: [early.name] });
      const feed = await get("/leaderboard/ctftime/", token);
      expect({ who, late: feed.standings.find((t: any) => t.team === late.name)?.score }).toEqual({ who, late: 0 });
      expect({ who, correct: (await get("/stats/stats/", token)).correct_solve_count }).toEqual({ who, correct: 1 });
    }
    expect((await server.api("POST", "/config/scoreboard_freeze_time/", { token: staff.token, body: { value: null } })).body.s).toBe(true);
    for (const { who, token } of readers()) {
      expect({ who, late: (await get(`/team/${late.id}/`, token)).leaderboard_points }).toEqual({ who, late: value(3) + 100 });
      expect({ who, correct: (await get("/stats/stats/", token)).correct_solve_count }).toEqual({ who, correct: 4 });
    }
    expect(await get(`/challenges/${decay.id}/`, third.members[0]!.token)).toMatchObject({ solve_count: 3, current_score: value(3) });
  });
});
