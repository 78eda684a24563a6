import { challengeValue } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCategory, createChallenge, createTeamWith, type TestTeam } from "../challenges/fixtures.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { boardCache } from "./board.ts";

/**
 * The score graph after decay re-scores (the web app's tRPC graph; REST's /leaderboard/graph/ is
 * the same function): each solve is drawn at what it counts for now, so every series ends where
 * the board's table says, live and on a frozen board alike.
 */
let world: TestWorld;
let staff: TestUser;
let decay: number;
const DECAY = { flag: "flag{right}", decay_constant: 0.5, min_points: 100 };
const value = (solves: number) => challengeValue("decay", 500, solves, DECAY);
const teams: TestTeam[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  const category = await createCategory(world);
  ({ id: decay } = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: DECAY }));
  for (let i = 0; i < 4; i++) teams.push(await createTeamWith(world));
});
afterAll(() => world.close());

async function solve(team: TestTeam): Promise<void> {
  const res = await callerFor(world, team.members[0]!).challenges.submitFlag({ challenge: decay, flag: "flag{right}" });
  expect(res.m).toBe("correct_flag");
  await boardCache(world.services).settled();
}

/** Per team and per user drawn: the sum of its series, beside its board points. */
async function sums(reader: TestUser | null) {
  const caller = callerFor(world, reader);
  const graph = await caller.leaderboard.graph();
  const board = await caller.leaderboard.teams({ limit: 10, offset: 0 });
  const users = await caller.leaderboard.users({ limit: 10, offset: 0 });
  if ("hidden" in graph || "hidden" in board || "hidden" in users) throw new Error("hidden");
  const sum = (points: { points: number }[]) => points.reduce((total, p) => total + p.points, 0);
  return {
    teams: board.results.map((t) => ({ id: t.id, board: t.leaderboard_points, graph: sum(graph.team!.filter((p) => p.team_id === t.id)) })),
    users: users.results.map((u) => ({ id: u.id, board: u.leaderboard_points, graph: sum(graph.user.filter((p) => p.user_id === u.id)) })),
    points: (team: TestTeam) => graph.team!.filter((p) => p.team_id === team.id).map((p) => p.points),
  };
}

describe("the score graph", () => {
  it("draws earlier solves at the value a decay re-score leaves them, so each series sums to the board's points", async () => {
    await solve(teams[0]!);
    expect((await sums(null)).points(teams[0]!)).toEqual([value(1)]);
    await solve(teams[1]!);
    await solve(teams[2]!);
    const live = await sums(null);
    // The first solver was re-scored twice: 500, then 300, then 200 (not 500 still).
    expect(live.points(teams[0]!)).toEqual([value(3)]);
    expect(live.teams.map((t) => t.graph)).toEqual(live.teams.map((t) => t.board));
    expect(live.users.map((u) => u.graph)).toEqual(live.users.map((u) => u.board));
    expect(live.teams.filter((t) => t.board > 0)).toHaveLength(3);
  });

  it("on a frozen board, draws the solves up to the freeze at the value then, whatever decay came after", async () => {
    const freeze = Math.ceil(Date.now() / 1000);
    while (Date.now() <= freeze * 1000 + 20) await new Promise((resolve) => setTimeout(resolve, 25));
    await callerFor(world, staff).config.set({ key: "scoreboard_freeze_time", value: freeze });
    await solve(teams[3]!);

    const player = teams[0]!.members[0]!;
    const frozen = await sums(player);
    expect(frozen.points(teams[0]!)).toEqual([value(3)]);
    expect(frozen.points(teams[3]!)).toEqual([]);
    expect(frozen.teams.map((t) => t.graph)).toEqual(frozen.teams.map((t) => t.board));
    expect(frozen.users.map((u) => u.graph)).toEqual(frozen.users.map((u) => u.board));

    // Staff see it live: the later solve and the decay it caused.
    const live = await sums(staff);
    expect(live.points(teams[0]!)).toEqual([value(4)]);
    expect(live.points(teams[3]!)).toEqual([value(4)]);
    expect(live.teams.map((t) => t.graph)).toEqual(live.teams.map((t) => t.board));
    await callerFor(world, staff).config.set({ key: "scoreboard_freeze_time", value: null });
  });
});
