import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";
import { freezeTime } from "./freeze.ts";

export type BoardView = { hidden: true } | { hidden: false; frozenAt: Date | null; teams: boolean; staff: boolean };

/**
 * What the caller may see of the scoreboard: nothing when it is switched off (staff excepted);
 * for players, the board frozen at scoreboard_freeze_time once that has passed, until staff reveal it.
 */
export async function boardView(ctx: Context, options: { players?: boolean | undefined } = {}): Promise<BoardView> {
  const config = await ctx.config.all();
  const staff = await hasStaffPowers(ctx);
  if (!config.enable_scoreboard && !staff) return { hidden: true };
  // Staff may ask for the players' board (`players`), to see what the room sees while frozen.
  const live = staff && !options.players;
  return { hidden: false, frozenAt: live ? null : freezeTime(config, ctx.now()), teams: config.enable_teams, staff };
}
