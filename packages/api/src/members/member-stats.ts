import type { Context } from "../context.ts";
import { type ProgressStats, progressStats } from "../teams/progress.ts";
import { visibleMemberId } from "./get-member.ts";

/** The profile page's charts: correct versus incorrect, per-category breakdown, score over time. */
export async function getMemberStats(ctx: Context, idOrMe: number | "me"): Promise<ProgressStats> {
  const { id, staff } = await visibleMemberId(ctx, idOrMe);
  return progressStats(ctx, staff, { solves: { userId: id }, attempts: { userId: id }, records: { userId: id } });
}
