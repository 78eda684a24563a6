import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";

/**
 * Whose points and solves the caller may see. With the scoreboard on (or for staff) everyone's;
 * while `enable_scoreboard` is off, a player sees only their own and their own team's, so the
 * hidden scoreboard cannot be rebuilt from team and member pages. Hidden scores read as 0 points
 * and no solves.
 */
export interface ScoreVisibility {
  all: boolean;
  userId: number | null;
  teamId: number | null;
}

export async function scoreVisibility(ctx: Context): Promise<ScoreVisibility> {
  const all = (await ctx.config.get("enable_scoreboard")) || (await hasStaffPowers(ctx));
  return { all, userId: ctx.actor?.id ?? null, teamId: ctx.actor?.teamId ?? null };
}

export function showsTeamScores(visibility: ScoreVisibility, teamId: number | null): boolean {
  return visibility.all || (teamId !== null && teamId === visibility.teamId);
}

export function showsUserScores(visibility: ScoreVisibility, user: { id: number; teamId: number | null }): boolean {
  return visibility.all || user.id === visibility.userId || showsTeamScores(visibility, user.teamId);
}

/** Filters that match nothing, for the progress charts of someone whose scores are hidden. */
export const NO_PROGRESS = { solves: { id: { in: [] } }, attempts: { id: { in: [] } }, records: { id: { in: [] } } };
