import { AppError, parseInput, ZOtpInput } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";
import { guardCodeGuess } from "./sign-in-failures.ts";
import { acceptTotp, consumeBackupCode, newTotpSecret, replaceBackupCodes, totpUri } from "./totp.ts";

const TFA_SELECT = { id: true, username: true, totpSecret: true, totpVerified: true, totpLastStep: true } as const;

async function tfaState(ctx: AuthedContext) {
  return ctx.db.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: TFA_SELECT });
}

/**
 * POST /auth/add_2fa/: a fresh secret, not yet in force until a code confirms it. The secret is
 * only ever sent here, before enrolment; afterwards no reply carries it.
 */
export async function addTwoFactor(ctx: AuthedContext): Promise<{ totp_secret: string; uri: string; issuer: string }> {
  const user = await tfaState(ctx);
  if (user.totpVerified) throw new AppError("permission_denied");
  const secret = newTotpSecret();
  await ctx.db.user.update({ where: { id: user.id }, data: { totpSecret: secret, totpLastStep: null }, select: { id: true } });
  const issuer = await ctx.config.get("event_name");
  return { totp_secret: secret, uri: totpUri(secret, issuer, user.username), issuer };
}

/** POST /auth/verify_2fa/: confirms the pending secret; 10 single-use backup codes, shown once. */
export async function verifyTwoFactor(ctx: AuthedContext, raw: unknown): Promise<{ valid: true; backup_codes: string[] } | { valid: false }> {
  await ctx.throttle.check(ctx, "2fa");
  const { otp } = parseInput(ZOtpInput, raw);
  const user = await tfaState(ctx);
  if (user.totpVerified || !user.totpSecret) throw new AppError("permission_denied");
  return ctx.db.$transaction(async (tx) => {
    if (!(await acceptTotp(tx, user, otp.replace(/\s+/g, ""), ctx.now()))) return { valid: false as const };
    await tx.user.update({ where: { id: user.id }, data: { totpVerified: true }, select: { id: true } });
    return { valid: true as const, backup_codes: await replaceBackupCodes(tx, user.id) };
  });
}

/** POST /auth/remove_2fa/: needs a current code (or an unused backup code). */
export async function removeTwoFactor(ctx: AuthedContext, raw: unknown): Promise<void> {
  await ctx.throttle.check(ctx, "2fa");
  const { otp } = parseInput(ZOtpInput, raw);
  const user = await tfaState(ctx);
  if (!user.totpVerified) throw new AppError("permission_denied");
  const code = otp.replace(/\s+/g, "");
  // A stolen session must not be able to guess its way to switching 2FA off either.
  const guess = await guardCodeGuess(ctx, user);
  const accepted = /^\d{6}$/.test(code) ? await acceptTotp(ctx.db, user, code, ctx.now()) : await consumeBackupCode(ctx.db, user.id, code);
  if (!accepted) throw new AppError("code_incorrect");
  await guess.right();
  await ctx.db.$transaction([
    ctx.db.user.update({ where: { id: user.id }, data: { totpSecret: null, totpVerified: false, totpLastStep: null }, select: { id: true } }),
    ctx.db.backupCode.deleteMany({ where: { userId: user.id } }),
  ]);
}

/** POST /auth/regenerate_backup_codes/: a new set of 10; the old ones stop working. */
export async function regenerateBackupCodes(ctx: AuthedContext): Promise<{ backup_codes: string[] }> {
  const user = await tfaState(ctx);
  if (!user.totpVerified) throw new AppError("permission_denied");
  return { backup_codes: await ctx.db.$transaction((tx) => replaceBackupCodes(tx, user.id)) };
}
