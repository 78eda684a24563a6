import { AppError, parseInput, ZSudoInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { AuthedContext, StaffContext } from "../guards.ts";
import { issueToken, loginSession, sessionsRevoked } from "./tokens.ts";

/**
 * POST /auth/sudo/ (staff): a token acting as another user, marked with the staff member behind
 * it and linked to the login session that started it. It lives no longer than that session: it is
 * deleted with it (logout, password change) and ends when it does; it stops working as soon as
 * the staff member loses staff rights. A personal access token cannot start one (nor can an
 * impersonation: they do not nest), or a leaked script key would become a staff session that
 * outlives the key's own expiry and revocation.
 */
export async function sudo(ctx: StaffContext, raw: unknown): Promise<{ token: string; id: number; username: string }> {
  const { id } = parseInput(ZSudoInput, raw);
  return ctx.db.$transaction(async (tx) => {
    const session = await loginSession(tx, ctx.actor);
    if (id === ctx.actor.id) throw new AppError("cannot_impersonate_self");
    const target = await tx.user.findUnique({ where: { id }, select: { id: true, username: true, isActive: true } });
    if (!target || !target.isActive) throw new AppError("not_found");
    const token = await issueToken(tx, target.id, { impersonatorId: ctx.actor.id, sessionId: session.id, expiresAt: session.expiresAt });
    await writeAudit(tx, ctx.actor, "sudo", { target_id: target.id, target_username: target.username });
    return { token, id: target.id, username: target.username };
  });
}

/**
 * POST (or GET) /auth/desudo/: ends the impersonation (its token is deleted) and answers a fresh
 * token of the staff member behind it, ending no later than the session that started it.
 */
export async function desudo(ctx: AuthedContext): Promise<{ token: string }> {
  const impersonatorId = ctx.actor.impersonatorId;
  if (impersonatorId === null) throw new AppError("not_impersonating");
  const current = await ctx.db.authToken.findUnique({
    where: { id: ctx.actor.tokenId },
    select: { session: { select: { expiresAt: true } }, impersonator: { select: { id: true, username: true, isActive: true, isStaff: true } } },
  });
  const staff = current?.impersonator;
  if (!current || !staff || !staff.isActive || !staff.isStaff) {
    // The staff member lost their rights (or the session ended) meanwhile: no session comes back,
    // and the impersonation still ends.
    await ctx.db.authToken.deleteMany({ where: { id: ctx.actor.tokenId } });
    await sessionsRevoked(ctx.events, [ctx.actor.id]);
    throw new AppError(current ? "permission_denied" : "authentication_failed");
  }
  const result = await ctx.db.$transaction(async (tx) => {
    // Only the request that deletes the token hands a session back: two desudos at once get one.
    const { count } = await tx.authToken.deleteMany({ where: { id: ctx.actor.tokenId } });
    if (count === 0) throw new AppError("authentication_failed");
    await writeAudit(tx, staff, "desudo", { target_id: ctx.actor.id, target_username: ctx.actor.username });
    return { token: await issueToken(tx, staff.id, { expiresAt: current.session?.expiresAt ?? null }) };
  });
  // The impersonation token was the impersonated user's: that is whose websockets are re-checked.
  await sessionsRevoked(ctx.events, [ctx.actor.id]);
  return result;
}
