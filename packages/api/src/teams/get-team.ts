import { AppError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { type AuthedContext, hasStaffPowers } from "../guards.ts";
import { viewMode } from "../leaderboard/freeze.ts";
import { ownViews } from "../members/own-views.ts";
import { buildTeamView, type TeamView } from "./team-view.ts";

/**
 * The caller's own team with its secret (GET /team/self/), or null when they have none. Players'
 * answers come from the maintained views (see own-views.ts); staff, who also see solves of hidden
 * challenges, and callers without a team read it fresh.
 */
export async function getOwnTeam(ctx: AuthedContext): Promise<TeamView | null> {
  const teamId = ctx.actor.teamId;
  if (teamId !== null && !(await hasStaffPowers(ctx))) {
    // Its own members always see the team's progress, so its wrong-flag count is unfiltered.
    return ownViews(ctx).team(teamId, () => buildTeamView(ctx, teamId, { withSecret: true, ownTeam: true }), await viewMode(ctx));
  }
  return loadOwnTeam(ctx);
}

/** The caller's own team read fresh from the database. */
export async function loadOwnTeam(ctx: AuthedContext): Promise<TeamView | null> {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.actor.id }, select: { teamId: true } });
  if (user?.teamId == null) return null;
  return buildTeamView(ctx, user.teamId, { withSecret: true, ownTeam: true });
}

export interface GetTeamOptions {
  /**
   * Adds the secret when the reader is staff. Only the tRPC staff view asks for it: the REST
   * contract answers `/team/{id}/` without password to everyone, staff included.
   */
  secretForStaff?: boolean;
}

/**
 * Any team by id (GET /team/{id}/). Invisible teams are not_found to everyone but staff and their
 * own members; the secret only with `secretForStaff` and a staff reader.
 */
export async function getTeam(ctx: Context, teamId: number, options: GetTeamOptions = {}): Promise<TeamView> {
  const staff = await hasStaffPowers(ctx);
  const own = ctx.actor !== null && (await ctx.db.user.count({ where: { id: ctx.actor.id, teamId } })) > 0;
  const team = await ctx.db.team.findUnique({ where: { id: teamId }, select: { isVisible: true } });
  if (!team || (!team.isVisible && !staff && !own)) throw new AppError("not_found");
  const view = await buildTeamView(ctx, teamId, { withSecret: staff && options.secretForStaff === true, ownTeam: own });
  if (!view) throw new AppError("not_found");
  return view;
}

/** A team's page by name (/team/the-bytes), case-insensitively as names are unique; visible as by id. */
export async function getTeamByName(ctx: Context, name: string): Promise<TeamView> {
  const team = await ctx.db.team.findUnique({ where: { name }, select: { id: true } });
  if (!team) throw new AppError("not_found");
  return getTeam(ctx, team.id, { secretForStaff: true });
}
