import type { Prisma } from "@flagship/db";
import { type CategoryProgress, categoryProgress, cumulativeScore, type ScorePoint, solveValue } from "@flagship/shared";
import type { Context } from "../context.ts";
import { type FrozenView, frozenWorth, type LaterSolve, shownInFrozenView } from "../leaderboard/freeze.ts";
import { solveVisibility } from "./solve-view.ts";
import { releasedChallengeWhere } from "../challenges/access.ts";

export interface ProgressStats {
  correct: number;
  incorrect: number;
  categories: CategoryProgress[];
  score: ScorePoint[];
}

/**
 * The numbers behind the profile and team charts: correct versus incorrect attempts, progress per
 * category (hidden challenges count only for staff) and the score over time from score records.
 */
export async function progressStats(
  ctx: Context,
  staff: boolean,
  who: { solves: Prisma.SolveWhereInput; attempts: Prisma.IncorrectAttemptWhereInput; records: Prisma.ScoreRecordWhereInput },
  frozen?: { view: FrozenView; later: readonly LaterSolve[] },
): Promise<ProgressStats> {
  // While the scoreboard is frozen (freeze.ts): solves and score changes up to the freeze, plus the
  // reader's own team's later solves at their worth at the freeze.
  const view = frozen?.view;
  const solvesWhere: Prisma.SolveWhereInput = view ? { AND: [who.solves, shownInFrozenView(view)] } : who.solves;
  const recordsWhere: Prisma.ScoreRecordWhereInput = view ? { AND: [who.records, { timestamp: { lte: view.at } }] } : who.records;
  // Wrong flags after the freeze are activity as much as solves: only the reader's own team's count.
  const attemptsWhere: Prisma.IncorrectAttemptWhereInput = view ? { AND: [who.attempts, shownInFrozenView(view)] } : who.attempts;
  const [categories, solves, incorrect, records] = await Promise.all([
    ctx.db.category.findMany({
      select: { id: true, name: true, _count: { select: { challenges: staff ? true : { where: releasedChallengeWhere() } } } },
      orderBy: [{ displayOrder: "asc" }, { id: "asc" }],
    }),
    ctx.db.solve.findMany({
      where: { ...solvesWhere, ...solveVisibility(staff) },
      select: { challengeId: true, points: true, penalty: true, challenge: { select: { categoryId: true } } },
    }),
    ctx.db.incorrectAttempt.count({ where: attemptsWhere }),
    ctx.db.scoreRecord.findMany({ where: recordsWhere, select: { points: true, timestamp: true }, orderBy: { timestamp: "asc" } }),
  ]);
  const worth = (s: { challengeId: number; points: number; penalty: number }) => (view ? frozenWorth(view, s) : solveValue(s));
  if (view) {
    const later = [...frozen.later].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    records.push(...later.map((s) => ({ points: worth(s), timestamp: s.timestamp })));
  }
  return {
    correct: solves.length,
    incorrect,
    categories: categoryProgress(
      categories.map((c) => ({ id: c.id, name: c.name, total: c._count.challenges })),
      solves.map((s) => ({ categoryId: s.challenge.categoryId, points: worth(s) })),
    ),
    score: cumulativeScore(records),
  };
}
