import { AppError, linkUserId, parseInput, ZEmailInput, ZEmailTokenInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { sendQuietly } from "../mail/mailer.ts";
import { consumeEmailToken, createEmailToken, verifyLink } from "./email-tokens.ts";
import { mayLogInDirectly } from "./login.ts";
import { verificationMail } from "./mails.ts";
import { issueToken } from "./tokens.ts";

/**
 * POST /auth/verify_email/: uses the mailed link once. The reply logs the user in (`token`) when
 * they could log in right now without 2FA; otherwise `token` is null and they log in normally.
 */
export async function verifyEmail(ctx: Context, raw: unknown): Promise<{ token: string | null }> {
  await ctx.throttle.check(ctx, "verify_email");
  const input = parseInput(ZEmailTokenInput, raw);
  const userId = linkUserId(input.uid);
  const user = userId === null ? null : await ctx.db.user.findUnique({
    where: { id: userId },
    select: { id: true, isStaff: true, isActive: true, emailVerified: true, totpVerified: true },
  });
  if (!user || !user.isActive) throw new AppError("invalid_token_or_uid");
  if (user.emailVerified) throw new AppError("email_already_verified");
  const verified = await ctx.db.$transaction(async (tx) => {
    if (!(await consumeEmailToken(tx, user.id, input.token, "verify_email", ctx.now()))) return false;
    await tx.user.update({ where: { id: user.id }, data: { emailVerified: true }, select: { id: true } });
    return true;
  });
  if (!verified) throw new AppError("invalid_token_or_uid");
  const direct = await mayLogInDirectly(ctx, { ...user, emailVerified: true });
  return { token: direct ? await issueToken(ctx.db, user.id) : null };
}

/** POST /auth/resend_email/: a new verification mail; the earlier link stops working. */
export async function resendVerification(ctx: Context, raw: unknown): Promise<void> {
  await ctx.throttle.check(ctx, "resend_verify_email");
  const { email } = parseInput(ZEmailInput, raw);
  const user = await ctx.db.user.findUnique({ where: { email }, select: { id: true, username: true, email: true, emailVerified: true, isActive: true } });
  if (!user || !user.isActive) throw new AppError("not_found");
  if (user.emailVerified) throw new AppError("email_already_verified");
  const token = await createEmailToken(ctx.db, user.id, "verify_email", ctx.now());
  const eventName = await ctx.config.get("event_name");
  await sendQuietly(ctx.mail, ctx.log, verificationMail(user.email, user.username, eventName, verifyLink(ctx.mail.publicUrl, user.id, token)));
}
