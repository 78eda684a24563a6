import { NO_PROGRESS, scoreVisibility, showsTeamScores } from "../leaderboard/score-visibility.ts";
import { frozenUser, frozenView, laterSolves, withLater } from "../leaderboard/freeze.ts";
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
  const freeze = await frozenView(ctx);
  const later = freeze && teamId === freeze.teamId ? await laterSolves(ctx, freeze, { teamId }) : [];
  const [stats, members] = await Promise.all([
    progressStats(ctx, staff, shown ? { solves: { teamId }, attempts: { teamId }, records: { teamId } } : NO_PROGRESS, freeze && shown ? { view: freeze, later } : undefined),
    ctx.db.user.findMany({
      where: { teamId, ...(!staff && !own && { isVisible: true }) },
      select: { id: true, username: true, points: true },
      // Hidden scores do not even order the members.
      ...(!shown && { orderBy: { id: "asc" as const } }),
      orderBy: [{ points: "desc" }, { id: "asc" }],
    }),
  ]);
  if (!shown) return { ...stats, members: members.map((m) => ({ ...m, points: 0 })) };
  if (!freeze) return { ...stats, members };
  // While frozen: each member's points as they stood at the freeze, plus their own team's later solves.
  const frozen = members.map((m) => ({ ...m, points: withLater(freeze, frozenUser(freeze, m.id), later.filter((s) => s.userId === m.id)).points }));
  return { ...stats, members: frozen.sort((a, b) => b.points - a.points || a.id - b.id) };
}
