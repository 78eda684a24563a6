import { callerFor, createCategory, createChallenge, createTeamWith } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

/**
 * Awards and solves made by staff in the REST views RACTF's client reads: team and member points,
 * the team's solves, the leaderboard, the graph, the matrix and the CTFtime feed agree with them,
 * in the shapes the contract gives, and none of them shows a flag's text.
 */
const { server, staff } = await useContractServer();
const world = server.world;
const team = await createTeamWith(world, 2);
const category = await createCategory(world);
const challenge = await createChallenge(world, category.id, { score: 120, flagMetadata: { flag: "flag{moderated}" } });
const staffCaller = callerFor(world, staff);
await staffCaller.moderation.markSolved({ team: team.id, challenge: challenge.id, user: team.members[1]!.id });
await staffCaller.moderation.giveAward({ team: team.id, points: 30, reason: "Bug bounty" });
await staffCaller.moderation.giveAward({ user: team.members[0]!.id, points: 7, reason: "Best writeup" });
const total = 120 + 30 + 7;

describe("awards and staff-made solves over /api/v2", () => {
  it("count in the team's points, and the staff-made solve is listed as the team's solve by the member credited", async () => {
    const res = await server.api("GET", `/team/${team.id}/`);
    expect(res.status).toBe(200);
    expect(res.body.d).toMatchObject({ points: total, leaderboard_points: total });
    expect(res.body.d.solves).toEqual([expect.objectContaining({ challenge: challenge.id, solved_by: team.members[1]!.id, points: 120, first_blood: false })]);
    expect(JSON.stringify(res.body)).not.toContain("flag{moderated}");
  });

  it("count in a member's points: the solve for the member credited, a player's award for that player", async () => {
    expect((await server.api("GET", `/member/${team.members[1]!.id}/`)).body.d).toMatchObject({ points: 120, leaderboard_points: 120 });
    expect((await server.api("GET", `/member/${team.members[0]!.id}/`)).body.d).toMatchObject({ points: 7, leaderboard_points: 7 });
  });

  it("count on the board, the graph, the matrix and the CTFtime feed", async () => {
    const board = (await server.api("GET", "/leaderboard/team/")).body.d.results as { id: number; leaderboard_points: number }[];
    expect(board.find((t) => t.id === team.id)?.leaderboard_points).toBe(total);
    const graph = (await server.api("GET", "/leaderboard/graph/")).body.d.team as { team_name: string; points: number }[];
    expect(graph.filter((p) => p.team_name === team.name).reduce((sum, p) => sum + p.points, 0)).toBe(total);
    const matrix = (await server.api("GET", "/leaderboard/matrix/")).body.d.results as { id: number; solve_ids: number[] }[];
    expect(matrix.find((t) => t.id === team.id)?.solve_ids).toEqual([challenge.id]);
    const feed = (await server.api("GET", "/leaderboard/ctftime/")).body as unknown as { standings: { team: string; score: number; taskStats: Record<string, { points: number }> }[] };
    expect(feed.standings.find((s) => s.team === team.name)).toMatchObject({ score: total, taskStats: { [challenge.name]: { points: 120 } } });
  });

  it("count in the challenge's solve count as a solve", async () => {
    const res = await server.api("GET", `/challenges/${challenge.id}/`, { token: team.members[0]!.token });
    expect(res.body.d).toMatchObject({ solve_count: 1, solved: true });
  });
});

describe("awards in a solo event over /api/v2", () => {
  it("are the player's: the member view, the user board and graph count one given to the player's own team, and the profile lists it", async () => {
    const solo = await createTeamWith(world, 1);
    const player = solo.members[0]!;
    await staffCaller.config.set({ key: "enable_teams", value: false });
    try {
      const award = await staffCaller.moderation.giveAward({ team: solo.id, points: 45, reason: "Found a bug" });
      expect(award).toMatchObject({ team: solo.id, user: player.id, username: player.username });
      await staffCaller.moderation.giveAward({ user: player.id, points: -5, reason: "Spam" });
      for (const path of [`/member/${player.id}/`, "/member/self/"]) {
        expect((await server.api("GET", path, { token: player.token })).body.d).toMatchObject({ points: 40, leaderboard_points: 40 });
      }
      const board = (await server.api("GET", "/leaderboard/user/")).body.d.results as { id: number; leaderboard_points: number }[];
      expect(board.find((u) => u.id === player.id)?.leaderboard_points).toBe(40);
      const graph = (await server.api("GET", "/leaderboard/graph/")).body.d.user as { user_name: string; points: number }[];
      expect(graph.filter((p) => p.user_name === player.username).reduce((sum, p) => sum + p.points, 0)).toBe(40);
      const listed = await callerFor(world, null).moderation.awards({ user: player.id });
      expect(listed.map((a) => [a.points, a.reason])).toEqual([
        [-5, "Spam"],
        [45, "Found a bug"],
      ]);
      expect((await callerFor(world, null).users.stats({ id: player.id })).score.at(-1)).toMatchObject({ points: 40 });
    } finally {
      await staffCaller.config.set({ key: "enable_teams", value: true });
    }
  });
});
