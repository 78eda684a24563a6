import { NO_PROGRESS, scoreVisibility, showsUserScores } from "../leaderboard/score-visibility.ts";
import { frozenView, laterSolves } from "../leaderboard/freeze.ts";
import type { Context } from "../context.ts";
import { type ProgressStats, progressStats } from "../teams/progress.ts";
import { visibleMemberId } from "./get-member.ts";

/** The profile page's charts: correct versus incorrect, per-category breakdown, score over time. */
export async function getMemberStats(ctx: Context, idOrMe: number | "me"): Promise<ProgressStats> {
  const { id, staff } = await visibleMemberId(ctx, idOrMe);
  const visibility = await scoreVisibility(ctx);
  const teamId = visibility.all ? null : ((await ctx.db.user.findUnique({ where: { id }, select: { teamId: true } }))?.teamId ?? null);
  const shown = showsUserScores(visibility, { id, teamId });
  const who = shown ? { solves: { userId: id }, attempts: { userId: id }, records: { userId: id } } : NO_PROGRESS;
  const freeze = shown ? await frozenView(ctx) : null;
  if (!freeze) return progressStats(ctx, staff, who);
  // While frozen: the reader's own teammates' later solves count, worth what they were at the freeze.
  const memberTeam = freeze.teamId === null ? null : ((await ctx.db.user.findUnique({ where: { id }, select: { teamId: true } }))?.teamId ?? null);
  const later = memberTeam !== null && memberTeam === freeze.teamId ? await laterSolves(ctx, freeze, { userId: id, teamId: memberTeam }) : [];
  return progressStats(ctx, staff, who, { view: freeze, later });
}
