import { AppError, eventGates } from "@flagship/shared";
import { Prisma } from "@flagship/db";
import type { Context } from "../context.ts";
import { type AuthedContext, hasStaffPowers, requireAuth } from "../guards.ts";

/**
 * Who may see challenges: staff always; players once the event has started and, after it ends,
 * only while enable_view_challenges_after_competion is on. Anyone else gets permission_denied
 * and learns nothing about the challenges.
 */
export async function requireChallengeAccess(ctx: Context): Promise<{ ctx: AuthedContext; staff: boolean }> {
  const authed = requireAuth(ctx);
  if (await hasStaffPowers(authed)) return { ctx: authed, staff: true };
  const config = await ctx.config.all();
  const gates = eventGates(config, ctx.now());
  if (!gates.started || (gates.ended && !config.enable_view_challenges_after_competion)) throw new AppError("permission_denied");
  return { ctx: authed, staff: false };
}

/**
 * The challenges players may know of, for queries: not hidden, and released (no schedule, or its
 * time has come). The catalog holds the same rule as `withheld` (catalog.ts).
 */
export function releasedChallengeWhere(): Prisma.ChallengeWhereInput {
  return { hidden: false, OR: [{ scheduledAt: null }, { scheduledAt: { lte: new Date() } }] };
}

/** The same rule in SQL, over the challenges table as `c`. */
export const RELEASED_CHALLENGE_SQL = Prisma.sql`(NOT c.hidden AND (c.scheduled_at IS NULL OR c.scheduled_at <= now()))`;
