import { AppError, type ErrorCode, eventGates, type Login2faInput, type LoginInput, parseInput, twoFactorKind, ZLogin2faInput, ZLoginInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { hashPassword, passwordNeedsRehash, verifyPassword } from "./passwords.ts";
import { guardCodeGuess, guardPasswordGuess, recordSignInFailure } from "./sign-in-failures.ts";
import { issueToken } from "./tokens.ts";
import { acceptTotp, consumeBackupCode } from "./totp.ts";

/** Login failures carry their code in `d.reason` too, as the contract says. */
export function loginError(code: ErrorCode): AppError {
  return new AppError(code, { details: { reason: code } });
}

const LOGIN_USER_SELECT = {
  id: true,
  username: true,
  passwordHash: true,
  isStaff: true,
  isActive: true,
  emailVerified: true,
  totpSecret: true,
  totpVerified: true,
  totpLastStep: true,
} as const;

export type LoginUser = { id: number; username: string; isStaff: boolean; isActive: boolean; emailVerified: boolean; totpSecret: string | null; totpVerified: boolean; totpLastStep: bigint | null };

/** The account named by username or email (case-insensitive), if the password is right. */
async function authenticate(ctx: Context, input: LoginInput): Promise<LoginUser> {
  const candidates = await ctx.db.user.findMany({
    where: { OR: [{ username: input.username }, { email: input.username }] },
    select: LOGIN_USER_SELECT,
    take: 2,
  });
  // A username that happens to equal someone else's email names the username's owner.
  const user = candidates.find((c) => c.username.toLowerCase() === input.username.toLowerCase()) ?? candidates[0] ?? null;
  const guess = await guardPasswordGuess(ctx, user, input.username);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password).catch(async (error: unknown) => {
    // Not compared (the hashing pool is full): not a guess.
    await guess.right();
    throw error;
  });
  if (!user || !ok || !user.isActive) {
    if (user && !ok) await recordSignInFailure(ctx, user.id, "password");
    throw loginError("incorrect_username_or_password");
  }
  await guess.right();
  if (user.passwordHash && passwordNeedsRehash(user.passwordHash)) await rehash(ctx, user.id, user.passwordHash, input.password);
  return user;
}

/**
 * Upgrades a hash made with other argon2 parameters (older defaults) while the password is at hand,
 * the only moment it is. Only if the stored hash is still the one verified, so a password changed
 * meanwhile is never overwritten; a busy hashing pool skips it and the next login tries again.
 */
async function rehash(ctx: Context, userId: number, verified: string, password: string): Promise<void> {
  let passwordHash: string;
  try {
    passwordHash = await hashPassword(password);
  } catch (error) {
    if (error instanceof AppError && error.code === "throttled") return;
    throw error;
  }
  await ctx.db.user.updateMany({ where: { id: userId, passwordHash: verified }, data: { passwordHash } });
}

/**
 * The gates after the password: login switched off, or the event not started while login before
 * the start (`enable_prelogin`) is off (never for staff), then an unverified email (never for staff).
 */
export async function assertMayLogIn(ctx: Context, user: Pick<LoginUser, "isStaff" | "emailVerified">): Promise<void> {
  if (user.isStaff) return;
  const config = await ctx.config.all();
  if (!config.enable_login || !(config.enable_prelogin || eventGates(config, ctx.now()).started)) throw loginError("login_not_open");
  if (!user.emailVerified) throw loginError("email_verification_required");
}

/** True when the account could log in right now without a second factor. */
export async function mayLogInDirectly(ctx: Context, user: Pick<LoginUser, "isStaff" | "emailVerified" | "totpVerified">): Promise<boolean> {
  if (user.totpVerified) return false;
  try {
    await assertMayLogIn(ctx, user);
    return true;
  } catch {
    return false;
  }
}

async function startSession(ctx: Context, userId: number): Promise<{ token: string }> {
  await ctx.db.user.update({ where: { id: userId }, data: { lastIp: ctx.ip }, select: { id: true } });
  return { token: await issueToken(ctx.db, userId) };
}

/** POST /auth/login/: a token, or `2fa_required` when the account has 2FA. */
export async function login(ctx: Context, raw: unknown): Promise<{ token: string }> {
  await ctx.throttle.check(ctx, "login");
  const input = parseInput(ZLoginInput, raw);
  const user = await authenticate(ctx, input);
  await assertMayLogIn(ctx, user);
  if (user.totpVerified) throw loginError("2fa_required");
  return startSession(ctx, user.id);
}

/** POST /auth/login_2fa/: the password plus a TOTP code (6 characters) or a backup code (8). */
export async function login2fa(ctx: Context, raw: unknown): Promise<{ token: string }> {
  await ctx.throttle.check(ctx, "2fa");
  const input: Login2faInput = parseInput(ZLogin2faInput, raw);
  const user = await authenticate(ctx, input);
  if (!user.totpVerified) throw loginError("2fa_not_enabled");
  await assertMayLogIn(ctx, user);
  const code = input.tfa.replace(/\s+/g, "");
  const kind = twoFactorKind(code);
  const guess = await guardCodeGuess(ctx, user);
  const accepted =
    kind === "totp" ? await acceptTotp(ctx.db, user, code, ctx.now()) : kind === "backup" ? await consumeBackupCode(ctx.db, user.id, code) : false;
  if (!accepted) {
    await recordSignInFailure(ctx, user.id, "code");
    throw loginError("login_failed");
  }
  await guess.right();
  return startSession(ctx, user.id);
}
