import { NO_PROGRESS, scoreVisibility, showsTeamScores } from "../leaderboard/score-visibility.ts";
import { AppError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";
import { type ProgressStats, progressStats } from "./progress.ts";

export interface TeamStats extends ProgressStats {
  /** Each visible member's share of the team's points. */
  members: { id: number; username: string; points: number }[];
}

/** The team page's charts: attempts, category progress, score over time and member shares. */
export async function getTeamStats(ctx: Context, teamId: number): Promise<TeamStats> {
  const staff = await hasStaffPowers(ctx);
  const own = ctx.actor?.teamId === teamId;
  const team = await ctx.db.team.findUnique({ where: { id: teamId }, select: { isVisible: true } });
  if (!team || (!team.isVisible && !staff && !own)) throw new AppError("not_found");
  const shown = own || showsTeamScores(await scoreVisibility(ctx), teamId);
  const [stats, members] = await Promise.all([
    progressStats(ctx, staff, shown ? { solves: { teamId }, attempts: { teamId }, records: { teamId } } : NO_PROGRESS),
    ctx.db.user.findMany({
      where: { teamId, ...(!staff && !own && { isVisible: true }) },
      select: { id: true, username: true, points: true },
      // Hidden scores do not even order the members.
      ...(!shown && { orderBy: { id: "asc" as const } }),
      orderBy: [{ points: "desc" }, { id: "asc" }],
    }),
  ]);
  return { ...stats, members: shown ? members : members.map((m) => ({ ...m, points: 0 })) };
}
