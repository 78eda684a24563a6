import { AppError } from "@flagship/shared";
import type { Actor, Context } from "./context.ts";

/** The access checks behind the procedure tiers; REST handlers call the same functions. */
export type AuthedContext = Context & { actor: Actor };
export type StaffContext = AuthedContext;
export type TeamContext = Context & { actor: Actor & { teamId: number } };

export function requireAuth(ctx: Context): AuthedContext {
  if (!ctx.actor) throw new AppError("not_authenticated");
  return ctx as AuthedContext;
}

/** A player in a team (with teams off every player has their own team of one). */
export function requireTeam(ctx: Context): TeamContext {
  const authed = requireAuth(ctx);
  if (authed.actor.teamId === null) throw new AppError("team_required");
  return authed as TeamContext;
}

/**
 * Staff only. With enable_force_admin_2fa on, a staff account without 2FA has no staff powers
 * until it enrols.
 */
export async function hasStaffPowers(ctx: Context): Promise<boolean> {
  if (!ctx.actor?.isStaff) return false;
  if (!ctx.actor.has2fa && (await ctx.config.get("enable_force_admin_2fa"))) return false;
  return true;
}

export async function requireStaff(ctx: Context): Promise<StaffContext> {
  const authed = requireAuth(ctx);
  if (!(await hasStaffPowers(authed))) throw new AppError("permission_denied");
  return authed;
}
