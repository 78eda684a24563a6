import { uniqueName } from "@flagship/db/testing";
import type { TestWorld } from "../testing/index.ts";

/** A category with one challenge per given score. */
export async function seedChallenges(world: TestWorld, scores: number[], options: { tiebreaker?: boolean } = {}) {
  const category = await world.services.db.category.create({ data: { name: uniqueName("cat") } });
  return Promise.all(
    scores.map((score) =>
      world.services.db.challenge.create({
        data: { categoryId: category.id, name: uniqueName("chal"), score, currentScore: score, tiebreaker: options.tiebreaker ?? true },
        select: { id: true, name: true, score: true, tiebreaker: true },
      }),
    ),
  );
}

/**
 * Records a scoring solve the way the scoring domain does (solve row, score records, incremental
 * totals), so board tests can arrange standings at chosen times.
 */
export async function recordSolve(
  world: TestWorld,
  solve: { userId: number; teamId: number; challenge: { id: number; score: number; tiebreaker: boolean }; at: Date; scoring?: boolean },
) {
  const scoring = solve.scoring ?? true;
  const { db } = world.services;
  await db.$transaction(async (tx) => {
    const row = await tx.solve.create({
      data: { userId: solve.userId, teamId: solve.teamId, challengeId: solve.challenge.id, points: solve.challenge.score, scoring, tiebreaker: solve.challenge.tiebreaker, timestamp: solve.at },
    });
    await tx.scoreRecord.create({
      data: { userId: solve.userId, teamId: solve.teamId, solveId: row.id, reason: "solve", points: solve.challenge.score, leaderboard: scoring, timestamp: solve.at },
    });
    const moveTime = scoring && solve.challenge.tiebreaker ? { lastScoreAt: solve.at } : {};
    const leaderboard = scoring ? { leaderboardPoints: { increment: solve.challenge.score } } : {};
    await tx.user.update({ where: { id: solve.userId }, data: { points: { increment: solve.challenge.score }, ...leaderboard, ...moveTime } });
    await tx.team.update({ where: { id: solve.teamId }, data: { points: { increment: solve.challenge.score }, ...leaderboard, ...moveTime } });
  });
  // What a real solve announces: the cached boards read the solver's totals again.
  await world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 1, challenge_id: solve.challenge.id, team: solve.teamId, user: solve.userId } });
}
