import { AppError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { type AuthedContext, hasStaffPowers } from "../guards.ts";
import { buildTeamView, type TeamView } from "./team-view.ts";

/** The caller's own team with its secret (GET /team/self/), or null when they have none. */
export async function getOwnTeam(ctx: AuthedContext): Promise<TeamView | null> {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.actor.id }, select: { teamId: true } });
  if (user?.teamId == null) return null;
  return buildTeamView(ctx, user.teamId, { withSecret: true, ownTeam: true });
}

/**
 * Any team by id (GET /team/{id}/). Invisible teams are not_found to everyone but staff and their
 * own members; the secret is shown to staff only, as the staff team export needs it.
 */
export async function getTeam(ctx: Context, teamId: number): Promise<TeamView> {
  const staff = await hasStaffPowers(ctx);
  const own = ctx.actor !== null && (await ctx.db.user.count({ where: { id: ctx.actor.id, teamId } })) > 0;
  const team = await ctx.db.team.findUnique({ where: { id: teamId }, select: { isVisible: true } });
  if (!team || (!team.isVisible && !staff && !own)) throw new AppError("not_found");
  const view = await buildTeamView(ctx, teamId, { withSecret: staff, ownTeam: own });
  if (!view) throw new AppError("not_found");
  return view;
}
