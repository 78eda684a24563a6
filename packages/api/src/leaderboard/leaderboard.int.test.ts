import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { recordSolve, seedChallenges } from "./test-factories.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

async function team(name = uniqueName("team")) {
  const t = await world.services.db.team.create({ data: { name, password: "secretsecret" } });
  const member = await createUser(world, { teamId: t.id });
  await world.services.db.team.update({ where: { id: t.id }, data: { ownerId: member.id } });
  return { ...t, member };
}

const minutes = (n: number) => new Date(Date.UTC(2030, 0, 1, 12, n));

describe("leaderboards", () => {
  it("orders by points, then by who reached them first, counting only tiebreaker solves for the time", async () => {
    const [a, b, c] = await Promise.all([team("order-a"), team("order-b"), team("order-c")]);
    const [c100, c200] = await seedChallenges(world, [100, 200]);
    const [noTie] = await seedChallenges(world, [100], { tiebreaker: false });
    await recordSolve(world, { userId: a.member.id, teamId: a.id, challenge: c100!, at: minutes(10) });
    await recordSolve(world, { userId: b.member.id, teamId: b.id, challenge: c100!, at: minutes(5) });
    await recordSolve(world, { userId: c.member.id, teamId: c.id, challenge: c200!, at: minutes(20) });
    // A non-tiebreaker solve adds points but does not move b's time.
    await recordSolve(world, { userId: b.member.id, teamId: b.id, challenge: noTie!, at: minutes(30) });

    const board = await callerFor(world, null).leaderboard.teams({ limit: 10, offset: 0 });
    if ("hidden" in board) throw new Error("hidden");
    const names = board.results.filter((r) => r.name.startsWith("order-")).map((r) => [r.name, r.leaderboard_points]);
    expect(names).toEqual([
      ["order-b", 200],
      ["order-c", 200],
      ["order-a", 100],
    ]);
    const users = await callerFor(world, null).leaderboard.users({ limit: 1000, offset: 0 });
    if ("hidden" in users) throw new Error("hidden");
    expect(users.results[0]).toEqual({ id: b.member.id, username: b.member.username, leaderboard_points: 200 });
  });

  it("pages with limit and offset and counts every entry", async () => {
    const board = await callerFor(world, null).leaderboard.teams({ limit: 1, offset: 1 });
    if ("hidden" in board) throw new Error("hidden");
    expect(board.results).toHaveLength(1);
    expect(board.count).toBeGreaterThanOrEqual(3);
    expect(board.results[0]?.name).toBe("order-c");
  });

  it("leaves out solves that do not count for the leaderboard", async () => {
    const t = await team("unscored");
    const [c] = await seedChallenges(world, [300]);
    await recordSolve(world, { userId: t.member.id, teamId: t.id, challenge: c!, at: minutes(1), scoring: false });
    const board = await callerFor(world, null).leaderboard.teams({ limit: 1000, offset: 0 });
    if ("hidden" in board) throw new Error("hidden");
    expect(board.results.find((r) => r.name === "unscored")?.leaderboard_points).toBe(0);
  });

  it("hides invisible teams and users", async () => {
    const t = await team("invisible-team");
    await world.services.db.team.update({ where: { id: t.id }, data: { isVisible: false } });
    await world.services.events.publish({ kind: "internal", name: "leaderboard_changed" });
    const board = await callerFor(world, null).leaderboard.teams({ limit: 1000, offset: 0 });
    if ("hidden" in board) throw new Error("hidden");
    expect(board.results.some((r) => r.name === "invisible-team")).toBe(false);
  });

  it("moves a team's points on the cached board as members with points join and leave", async () => {
    const host = await team("moving-host");
    const [c] = await seedChallenges(world, [700]);
    const drifter = await createUser(world);
    const own = await world.services.db.team.create({ data: { name: "moving-own", password: "secretsecret", ownerId: drifter.id } });
    await world.services.db.user.update({ where: { id: drifter.id }, data: { teamId: own.id } });
    await recordSolve(world, { userId: drifter.id, teamId: own.id, challenge: c!, at: minutes(2) });
    const points = async (name: string) => {
      const board = await callerFor(world, null).leaderboard.teams({ limit: 1000, offset: 0 });
      if ("hidden" in board) throw new Error("hidden");
      return board.results.find((r) => r.name === name)?.leaderboard_points;
    };
    expect(await points("moving-host")).toBe(0);
    // Staff move the scorer into the other team: their points go with them, and the board follows.
    await callerFor(world, staff).users.staffUpdate({ id: drifter.id, patch: { team: host.id } });
    expect(await points("moving-host")).toBe(700);
  });

  it("draws the top teams' and users' score changes for the graph", async () => {
    const graph = await callerFor(world, null).leaderboard.graph();
    if ("hidden" in graph) throw new Error("hidden");
    const b = graph.team?.filter((p) => p.team_name === "order-b");
    expect(b?.map((p) => p.points)).toEqual([100, 100]);
    expect(b?.[0]?.timestamp).toBe(minutes(5).toISOString());
    expect(graph.user.length).toBeGreaterThan(0);
  });

  it("draws solves only, not decay adjustments", async () => {
    const t = await team("decayed");
    const [c] = await seedChallenges(world, [50]);
    await recordSolve(world, { userId: t.member.id, teamId: t.id, challenge: c!, at: minutes(3) });
    await world.services.db.scoreRecord.create({ data: { userId: t.member.id, teamId: t.id, reason: "decay", points: -100, leaderboard: true, timestamp: minutes(4) } });
    const graph = await callerFor(world, null).leaderboard.graph();
    if ("hidden" in graph) throw new Error("hidden");
    expect(graph.team?.filter((p) => p.team_name === "decayed").map((p) => p.points)).toEqual([50]);
  });

  it("keeps hidden challenges out of a player's matrix", async () => {
    const t = await team("matrix-hidden");
    const [c] = await seedChallenges(world, [40]);
    await world.services.db.challenge.update({ where: { id: c!.id }, data: { hidden: true } });
    await recordSolve(world, { userId: t.member.id, teamId: t.id, challenge: c!, at: minutes(5) });
    const row = async (caller: ReturnType<typeof callerFor>) => {
      const matrix = await caller.leaderboard.matrix({ limit: 1000, offset: 0 });
      if ("hidden" in matrix) throw new Error("hidden");
      return matrix.results.find((r) => r.name === "matrix-hidden");
    };
    expect((await row(callerFor(world, null)))?.solve_ids).toEqual([]);
    expect((await row(callerFor(world, staff)))?.solve_ids).toEqual([c!.id]);
  });

  it("lists solved challenge ids in the matrix", async () => {
    const matrix = await callerFor(world, null).leaderboard.matrix({ limit: 100, offset: 0 });
    if ("hidden" in matrix) throw new Error("hidden");
    expect(matrix.results.find((r) => r.name === "order-b")?.solve_ids).toHaveLength(2);
  });

  it("hides every board from players when enable_scoreboard is off, but not from staff", async () => {
    await callerFor(world, staff).config.set({ key: "enable_scoreboard", value: false });
    const player = await createUser(world);
    expect(await callerFor(world, player).leaderboard.teams({ limit: 10, offset: 0 })).toEqual({ hidden: true });
    expect(await callerFor(world, null).leaderboard.graph()).toEqual({ hidden: true });
    expect(await callerFor(world, staff).leaderboard.teams({ limit: 10, offset: 0 })).not.toHaveProperty("hidden");
    await callerFor(world, staff).config.set({ key: "enable_scoreboard", value: true });
  });

  it("freezes the board for players at scoreboard_freeze_time while staff see it live", async () => {
    const frozen = await team("frozen-late");
    const [c] = await seedChallenges(world, [1000]);
    await callerFor(world, staff).config.set({ key: "scoreboard_freeze_time", value: Math.floor(minutes(40).getTime() / 1000) });
    world.setNow(Math.floor(minutes(60).getTime() / 1000));
    await recordSolve(world, { userId: frozen.member.id, teamId: frozen.id, challenge: c!, at: minutes(50) });

    const playerView = await callerFor(world, null).leaderboard.teams({ limit: 1000, offset: 0 });
    const staffView = await callerFor(world, staff).leaderboard.teams({ limit: 1000, offset: 0 });
    if ("hidden" in playerView || "hidden" in staffView) throw new Error("hidden");
    expect(playerView.results.find((r) => r.name === "frozen-late")?.leaderboard_points).toBe(0);
    expect(staffView.results[0]).toMatchObject({ name: "frozen-late", leaderboard_points: 1000 });

    // The end does not lift the freeze: the board stays as it stood until staff reveal it.
    await callerFor(world, staff).config.set({ key: "end_time", value: Math.floor(minutes(55).getTime() / 1000) });
    const ended = await callerFor(world, null).leaderboard.teams({ limit: 1000, offset: 0 });
    if ("hidden" in ended) throw new Error("hidden");
    expect(ended.results.find((r) => r.name === "frozen-late")?.leaderboard_points).toBe(0);
    await callerFor(world, staff).leaderboard.reveal();
    const after = await callerFor(world, null).leaderboard.teams({ limit: 1, offset: 0 });
    if ("hidden" in after) throw new Error("hidden");
    expect(after.results[0]).toMatchObject({ name: "frozen-late", leaderboard_points: 1000 });
    await callerFor(world, staff).config.set({ key: "end_time", value: null });
    world.setNow(null);
  });
});

describe("stats", () => {
  it("counts users, teams and solves", async () => {
    const stats = await callerFor(world, null).stats.stats();
    expect(stats.correct_solve_count).toBeGreaterThanOrEqual(5);
    expect(stats.solve_count).toBeGreaterThanOrEqual(stats.correct_solve_count);
    expect(stats.team_count).toBeGreaterThanOrEqual(3);
  });
  it("gives staff the full statistics and refuses players", async () => {
    const full = await callerFor(world, staff).stats.full();
    expect(full.users.all).toBeGreaterThan(0);
    expect(Object.values(full.challenges).some((c) => c.correct > 0)).toBe(true);
    await expect(callerFor(world, await createUser(world)).stats.full()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
