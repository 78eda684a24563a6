import { AppError, parseInput, ZSudoInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { AuthedContext, StaffContext } from "../guards.ts";
import { issueToken } from "./tokens.ts";

/**
 * POST /auth/sudo/ (staff): a token acting as another user, marked with the staff member behind
 * it. Impersonation does not nest: an impersonation session cannot start another one.
 */
export async function sudo(ctx: StaffContext, raw: unknown): Promise<{ token: string; id: number; username: string }> {
  const { id } = parseInput(ZSudoInput, raw);
  if (ctx.actor.impersonatorId !== null) throw new AppError("permission_denied");
  if (id === ctx.actor.id) throw new AppError("cannot_impersonate_self");
  const target = await ctx.db.user.findUnique({ where: { id }, select: { id: true, username: true, isActive: true } });
  if (!target || !target.isActive) throw new AppError("not_found");
  const token = await ctx.db.$transaction(async (tx) => {
    const key = await issueToken(tx, target.id, ctx.actor.id);
    await writeAudit(tx, ctx.actor, "sudo", { target_id: target.id, target_username: target.username });
    return key;
  });
  return { token, id: target.id, username: target.username };
}

/**
 * GET /auth/desudo/: ends the impersonation (its token is deleted) and answers a fresh token of
 * the staff member behind it.
 */
export async function desudo(ctx: AuthedContext): Promise<{ token: string }> {
  const impersonatorId = ctx.actor.impersonatorId;
  if (impersonatorId === null) throw new AppError("not_impersonating");
  const staff = await ctx.db.user.findUnique({ where: { id: impersonatorId }, select: { id: true, username: true, isActive: true } });
  if (!staff || !staff.isActive) {
    // A staff account deactivated meanwhile gets no session back; the impersonation still ends.
    await ctx.db.authToken.deleteMany({ where: { id: ctx.actor.tokenId } });
    await sessionsRevoked(ctx);
    throw new AppError("permission_denied");
  }
  const result = await ctx.db.$transaction(async (tx) => {
    await tx.authToken.deleteMany({ where: { id: ctx.actor.tokenId } });
    await writeAudit(tx, staff, "desudo", { target_id: ctx.actor.id, target_username: ctx.actor.username });
    return { token: await issueToken(tx, staff.id) };
  });
  await sessionsRevoked(ctx);
  return result;
}

/**
 * The impersonation token is gone, so a websocket opened with it must close. The token belonged
 * to the impersonated user (ctx.actor), so that is whose sessions the websocket server re-checks.
 */
function sessionsRevoked(ctx: AuthedContext): Promise<void> {
  return ctx.events.publish({ kind: "internal", name: "sessions_revoked", data: { userId: ctx.actor.id } });
}
