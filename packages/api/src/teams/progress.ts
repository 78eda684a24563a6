import type { Prisma } from "@flagship/db";
import { type CategoryProgress, categoryProgress, cumulativeScore, type ScorePoint, solveValue } from "@flagship/shared";
import type { Context } from "../context.ts";
import { solveVisibility } from "./solve-view.ts";

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
): Promise<ProgressStats> {
  const [categories, solves, incorrect, records] = await Promise.all([
    ctx.db.category.findMany({
      select: { id: true, name: true, _count: { select: { challenges: staff ? true : { where: { hidden: false } } } } },
      orderBy: [{ displayOrder: "asc" }, { id: "asc" }],
    }),
    ctx.db.solve.findMany({
      where: { ...who.solves, ...solveVisibility(staff) },
      select: { points: true, penalty: true, challenge: { select: { categoryId: true } } },
    }),
    ctx.db.incorrectAttempt.count({ where: who.attempts }),
    ctx.db.scoreRecord.findMany({ where: who.records, select: { points: true, timestamp: true }, orderBy: { timestamp: "asc" } }),
  ]);
  return {
    correct: solves.length,
    incorrect,
    categories: categoryProgress(
      categories.map((c) => ({ id: c.id, name: c.name, total: c._count.challenges })),
      solves.map((s) => ({ categoryId: s.challenge.categoryId, points: solveValue(s) })),
    ),
    score: cumulativeScore(records),
  };
}
