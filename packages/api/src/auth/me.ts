import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";

export interface Me {
  id: number;
  username: string;
  email: string;
  isStaff: boolean;
  /** Staff with staff powers right now (false while enable_force_admin_2fa waits for enrolment). */
  staffPowers: boolean;
  /** Staff who must enrol in 2FA before their staff powers return. */
  mustEnrol2fa: boolean;
  teamId: number | null;
  has2fa: boolean;
  emailVerified: boolean;
  impersonating: boolean;
  impersonator: { id: number; username: string } | null;
}

/** Who the token belongs to, or null when logged out. The shell reads this on every page. */
export async function getMe(ctx: Context): Promise<Me | null> {
  if (!ctx.actor) return null;
  const [user, powers, impersonator] = await Promise.all([
    ctx.db.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: { email: true, emailVerified: true } }),
    hasStaffPowers(ctx),
    ctx.actor.impersonatorId === null
      ? null
      : ctx.db.user.findUnique({ where: { id: ctx.actor.impersonatorId }, select: { id: true, username: true } }),
  ]);
  return {
    id: ctx.actor.id,
    username: ctx.actor.username,
    email: user.email,
    isStaff: ctx.actor.isStaff,
    staffPowers: powers,
    mustEnrol2fa: ctx.actor.isStaff && !powers,
    teamId: ctx.actor.teamId,
    has2fa: ctx.actor.has2fa,
    emailVerified: user.emailVerified,
    impersonating: ctx.actor.impersonatorId !== null,
    impersonator,
  };
}
