import { challengeValue } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCategory, createChallenge, createTeamWith } from "../challenges/fixtures.ts";
import { recordSolvesIn } from "./record-solve.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  await callerFor(world, staff).config.set({ key: "enable_team_leave", value: true });
});
afterAll(() => world.close());

function codeOf(result: PromiseSettledResult<unknown>): string {
  if (result.status === "fulfilled") return "ok";
  return (result.reason as { cause?: { code?: string } }).cause?.code ?? String(result.reason);
}

describe("a solve racing a team leave", () => {
  it("never lands a solve on a team the solver left, and keeps team points the sum of its members'", async () => {
    const category = await createCategory(world);
    for (let round = 0; round < 10; round++) {
      const challenge = await createChallenge(world, category.id, { score: 100 });
      // The leaver is not the owner, so only the solve can stop the leave.
      const team = await createTeamWith(world, 2);
      const leaver = team.members[1]!;
      const caller = callerFor(world, leaver);
      const [solve, leave] = await Promise.allSettled([
        caller.challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" }),
        caller.teams.leave(),
      ]);

      const user = await world.services.db.user.findUniqueOrThrow({ where: { id: leaver.id }, select: { teamId: true, points: true } });
      const solves = await world.services.db.solve.findMany({ where: { userId: leaver.id }, select: { teamId: true } });
      if (codeOf(leave) === "ok") {
        // The leave won: the solve was refused and nothing was recorded for the user.
        expect(user.teamId, `round ${round}`).toBeNull();
        expect(solves, `round ${round}`).toEqual([]);
        expect(codeOf(solve), `round ${round}`).toBe("permission_denied");
      } else {
        // The solve won: the leave was refused and the user stays with the points.
        expect(codeOf(leave), `round ${round}`).toBe("challenge_solved");
        expect(codeOf(solve), `round ${round}`).toBe("ok");
        expect(user, `round ${round}`).toEqual({ teamId: team.id, points: 100 });
        expect(solves, `round ${round}`).toEqual([{ teamId: team.id }]);
      }
      const dbTeam = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true } });
      const members = await world.services.db.user.aggregate({ where: { teamId: team.id }, _sum: { points: true } });
      expect(dbTeam.points, `round ${round}`).toBe(members._sum.points ?? 0);
    }
  });
});

describe("a batch of solves of one challenge (recordSolvesIn)", () => {
  const DECAY = { flag: "flag{right}", decay_constant: 0.5, min_points: 50 };
  const sumOf = async (teamId: number) =>
    (await world.services.db.scoreRecord.aggregate({ where: { teamId }, _sum: { points: true } }))._sum.points ?? 0;

  it("records each solve as one after another would: counts in order, first blood to the first, every solve worth the final value, earlier solvers re-scored once", async () => {
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: DECAY });
    const earlier = await createTeamWith(world, 1);
    await callerFor(world, earlier.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    const teams = await Promise.all(Array.from({ length: 4 }, () => createTeamWith(world, 1)));
    const { db } = world.services;
    const entry = (t: (typeof teams)[number]) => ({ challengeId: challenge.id, userId: t.members[0]!.id, teamId: t.id, scoring: true, firstBloodAllowed: true });
    const results = await db.$transaction((tx) => recordSolvesIn(tx, teams.map(entry)));

    const final = challengeValue("decay", 500, 5, DECAY);
    expect(results.map((r) => r.kind)).toEqual(["solve", "solve", "solve", "solve"]);
    const outcomes = results.map((r) => (r.kind === "solve" ? r.outcome : null)!);
    expect(outcomes.map((o) => o.solveCount)).toEqual([2, 3, 4, 5]);
    expect(outcomes.map((o) => o.points)).toEqual([final, final, final, final]);
    // First blood stayed with the team that solved it before the batch; one re-scoring, on the first.
    expect(outcomes.map((o) => o.firstBlood)).toEqual([false, false, false, false]);
    expect(outcomes.map((o) => o.rescored)).toEqual([true, false, false, false]);
    expect(outcomes[0]!.standings.teams.map((t) => t.id).sort()).toEqual([earlier.id, ...teams.map((t) => t.id)].sort());
    const row = await db.challenge.findUniqueOrThrow({ where: { id: challenge.id }, select: { solveCount: true, currentScore: true, firstBloodTeamId: true } });
    expect(row).toEqual({ solveCount: 5, currentScore: final, firstBloodTeamId: earlier.id });
    const solves = await db.solve.findMany({ where: { challengeId: challenge.id }, select: { points: true } });
    expect(solves.map((s) => s.points)).toEqual([final, final, final, final, final]);
    // One decay record for the earlier solver (not one a solve), and every team's total is its records' sum.
    expect(await db.scoreRecord.count({ where: { teamId: earlier.id, reason: "decay" } })).toBe(1);
    for (const t of [earlier, ...teams]) {
      const team = await db.team.findUniqueOrThrow({ where: { id: t.id }, select: { points: true, leaderboardPoints: true } });
      expect(team).toEqual({ points: final, leaderboardPoints: final });
      expect(await sumOf(t.id)).toBe(final);
    }
  });

  it("refuses entries one by one and records the rest: already solved, a solver who left the team, a team out of attempts; first blood to the first recorded", async () => {
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id, { score: 100, attemptLimit: 1 });
    const [solvedBefore, left, outOfAttempts, ok1, ok2] = await Promise.all(Array.from({ length: 5 }, () => createTeamWith(world, 2)));
    const { db } = world.services;
    await callerFor(world, solvedBefore!.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    await db.solve.updateMany({ where: { challengeId: challenge.id }, data: { firstBlood: false } });
    await db.challenge.update({ where: { id: challenge.id }, data: { firstBloodTeamId: null } });
    await db.attemptCounter.create({ data: { teamId: outOfAttempts!.id, challengeId: challenge.id, attempts: 1 } });
    await db.user.update({ where: { id: left!.members[1]!.id }, data: { teamId: null } });
    const entry = (t: typeof ok1, member = 0) => ({ challengeId: challenge.id, userId: t!.members[member]!.id, teamId: t!.id, scoring: true, firstBloodAllowed: true, attemptLimit: 1 });
    const results = await db.$transaction((tx) => recordSolvesIn(tx, [entry(solvedBefore, 1), entry(left, 1), entry(outOfAttempts), entry(ok1), entry(ok2)]));
    expect(results.map((r) => (r.kind === "refused" ? r.error.code : r.kind))).toEqual(["already_solved_challenge", "permission_denied", "limit", "solve", "solve"]);
    const [, , , first, second] = results.map((r) => (r.kind === "solve" ? r.outcome : null));
    expect([first!.firstBlood, second!.firstBlood]).toEqual([true, false]);
    expect([first!.solveCount, second!.solveCount]).toEqual([2, 3]);
    expect(await db.solve.count({ where: { challengeId: challenge.id } })).toBe(3);
    // A refused entry spent no attempt (the one taken for the solver who left was given back); a recorded one spent its one.
    const counters = await db.attemptCounter.findMany({ where: { challengeId: challenge.id }, select: { teamId: true, attempts: true } });
    const spent = new Map(counters.map((c) => [c.teamId, c.attempts]));
    expect([solvedBefore, left, outOfAttempts, ok1, ok2].map((t) => spent.get(t!.id) ?? 0)).toEqual([1, 0, 1, 1, 1]);
  });

  it("records solves of several challenges in one batch: each counted in its order, first blood on each, each decay challenge re-scored once", async () => {
    const category = await createCategory(world);
    const decay = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: DECAY });
    const basic = await createChallenge(world, category.id, { score: 100 });
    const [a, b, c] = await Promise.all(Array.from({ length: 3 }, () => createTeamWith(world, 1)));
    await callerFor(world, a!.members[0]!).challenges.submitFlag({ challenge: decay.id, flag: "flag{right}" });
    const { db } = world.services;
    const entry = (t: typeof a, challengeId: number) => ({ challengeId, userId: t!.members[0]!.id, teamId: t!.id, scoring: true, firstBloodAllowed: true });
    const results = await db.$transaction((tx) => recordSolvesIn(tx, [entry(b, decay.id), entry(b, basic.id), entry(c, basic.id), entry(c, decay.id), entry(a, decay.id)]));
    const summary = results.map((r) => (r.kind === "solve" ? [r.outcome.solveCount, r.outcome.firstBlood, r.outcome.points, r.outcome.rescored] : r.kind === "refused" ? r.error.code : r.kind));
    const final = challengeValue("decay", 500, 3, DECAY);
    expect(summary).toEqual([[2, false, final, true], [1, true, 100, false], [2, false, 100, false], [3, false, final, false], "already_solved_challenge"]);
    const rows = await db.challenge.findMany({ where: { id: { in: [decay.id, basic.id] } }, select: { id: true, solveCount: true, currentScore: true, firstBloodTeamId: true } });
    expect(rows.sort((x, y) => x.id - y.id)).toEqual([
      { id: decay.id, solveCount: 3, currentScore: final, firstBloodTeamId: a!.id },
      { id: basic.id, solveCount: 2, currentScore: 100, firstBloodTeamId: b!.id },
    ]);
    expect(await db.scoreRecord.count({ where: { teamId: a!.id, reason: "decay" } })).toBe(1);
    for (const [t, total] of [[a, final], [b, final + 100], [c, final + 100]] as const) {
      expect(await db.team.findUniqueOrThrow({ where: { id: t!.id }, select: { points: true } })).toEqual({ points: total });
      expect(await sumOf(t!.id)).toBe(total);
    }
  });

  it("under a burst through submit_flag: one solve and one solve record per team, the rest already solved, first blood to the lowest solve id, decay re-scored in fewer records than solves", async () => {
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: DECAY });
    const teams = await Promise.all(Array.from({ length: 24 }, () => createTeamWith(world, 2)));
    const answers = await Promise.allSettled(
      teams.flatMap((t) => t.members.map((m) => callerFor(world, m).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" }))),
    );
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(24);
    expect(answers.filter((a) => a.status === "rejected").map(codeOf)).toEqual(Array(24).fill("already_solved_challenge"));
    const { db } = world.services;
    const solves = await db.solve.findMany({ where: { challengeId: challenge.id }, select: { id: true, teamId: true, firstBlood: true }, orderBy: { id: "asc" } });
    expect(new Set(solves.map((s) => s.teamId)).size).toBe(24);
    expect(solves.filter((s) => s.firstBlood).map((s) => s.id)).toEqual([solves[0]!.id]);
    const records = (reason: string) => db.scoreRecord.count({ where: { solveId: { in: solves.map((s) => s.id) }, reason } });
    expect(await records("solve")).toBe(24);
    // One after another, every solve re-scored every earlier solver: 23 x 24 / 2 = 276 decay records.
    expect(await records("decay")).toBeLessThan(276);
    const final = challengeValue("decay", 500, 24, DECAY);
    for (const t of teams) expect(await sumOf(t.id)).toBe(final);
  });
});
