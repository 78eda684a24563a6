import { AppError, parseInput, ZChangePasswordInput } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";
import { assertStrongPassword, hashPassword, verifyPassword } from "./passwords.ts";
import { deleteTokens, sessionsRevoked } from "./tokens.ts";

/**
 * POST /auth/change_password/: the current password, then a strong new one. Every other session
 * of the user ends, staff impersonating them included; the one making the change stays signed in.
 */
export async function changePassword(ctx: AuthedContext, raw: unknown): Promise<void> {
  await ctx.throttle.check(ctx, "change_password");
  const input = parseInput(ZChangePasswordInput, raw);
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: { id: true, username: true, email: true, passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, input.old_password))) throw AppError.field("invalid_password", "old_password");
  assertStrongPassword(input.password, [user.username, user.email]);
  const passwordHash = await hashPassword(input.password);
  const ended = await ctx.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash }, select: { id: true } });
    // Impersonations begun from the ended sessions end with them.
    return deleteTokens(tx, { userId: user.id, id: { not: ctx.actor.tokenId } });
  });
  // The ended sessions' websockets must close too, not only their HTTP tokens.
  await sessionsRevoked(ctx.events, [user.id, ...ended]);
}
