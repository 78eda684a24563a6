import { AppError, linkUserId, parseInput, ZEmailInput, ZPasswordResetInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { sendQuietly } from "../mail/mailer.ts";
import { consumeEmailToken, createEmailToken, resetLink } from "./email-tokens.ts";
import { mayLogInDirectly } from "./login.ts";
import { passwordResetMail } from "./mails.ts";
import { assertStrongPassword, hashPassword } from "./passwords.ts";
import { deleteTokens, issueToken, sessionsRevoked } from "./tokens.ts";

/** POST /auth/request_password_reset/: mails a single-use link valid for an hour. */
export async function requestPasswordReset(ctx: Context, raw: unknown): Promise<void> {
  await ctx.throttle.check(ctx, "request_password_reset");
  const { email } = parseInput(ZEmailInput, raw);
  const user = await ctx.db.user.findUnique({ where: { email }, select: { id: true, username: true, email: true, isActive: true } });
  if (!user || !user.isActive) throw new AppError("not_found");
  const token = await createEmailToken(ctx.db, user.id, "password_reset", ctx.now());
  const eventName = await ctx.config.get("event_name");
  await sendQuietly(ctx.mail, ctx.log, passwordResetMail(user.email, user.username, eventName, resetLink(ctx.mail.publicUrl, user.id, token)));
}

/**
 * POST /auth/password_reset/: sets a new password with the mailed link. Every existing session
 * ends. Receiving the mail proves the address, so it counts as verified. The reply logs the
 * user in (`token`) unless the account has 2FA or may not log in now: a mailed link must never
 * bypass a second factor or a login gate, so then `token` is null.
 */
export async function resetPassword(ctx: Context, raw: unknown): Promise<{ token: string | null }> {
  await ctx.throttle.check(ctx, "password_reset");
  const input = parseInput(ZPasswordResetInput, raw);
  const userId = linkUserId(input.uid);
  const user = userId === null ? null : await ctx.db.user.findUnique({
    where: { id: userId },
    select: { id: true, username: true, email: true, isStaff: true, isActive: true, totpVerified: true },
  });
  if (!user || !user.isActive) throw new AppError("invalid_token_or_uid");
  // Strength first, so a rejected password does not burn the link.
  assertStrongPassword(input.password, [user.username, user.email]);
  const passwordHash = await hashPassword(input.password);
  const ended = await ctx.db.$transaction(async (tx) => {
    if (!(await consumeEmailToken(tx, user.id, input.token, "password_reset", ctx.now()))) return null;
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, emailVerified: true }, select: { id: true } });
    // Every session ends, staff impersonating the user included, and so do the impersonations
    // the user's own sessions began.
    return deleteTokens(tx, { userId: user.id });
  });
  if (!ended) throw new AppError("invalid_token_or_uid");
  // The ended sessions' websockets must close too: a reset often follows a stolen account.
  await sessionsRevoked(ctx.events, [user.id, ...ended]);
  const direct = await mayLogInDirectly(ctx, { ...user, emailVerified: true });
  return { token: direct ? await issueToken(ctx.db, user.id) : null };
}
