import type { Context } from "../context.ts";
import { writeAudit } from "../audit/write-audit.ts";
import type { GuessBlock } from "../throttle/throttle.ts";

/**
 * The longest one block on an account's sign-in lasts, however many blocks it has earned: five
 * minutes. Guesses spread over many addresses are limited per account, so anyone can block an
 * account by guessing at it; a short cap keeps the rightful owner's wait short (blocks still
 * hold guessing to the rate's tries per window and block: at the default 5/min, about sixty an hour).
 */
export const ACCOUNT_MAX_BLOCK_SECONDS = 300;

type Account = { id: number; username: string };

/** What an account's sign-in block records for staff: which secret was guessed, and from where the last guess came. */
function auditBlock(ctx: Context, account: Account, secret: "password" | "code") {
  return (block: GuessBlock) =>
    writeAudit(ctx.db, null, "sign_in_throttled", {
      user: account.id,
      username: account.username,
      secret,
      failures: block.failures,
      wait_seconds: block.seconds,
      ip: ctx.ip,
    });
}

/**
 * Counts a password guess at the account named `name` (`account` when one has it), from whatever
 * address: the per-address `login` rate alone let a guesser spread over many addresses try without
 * end. A name without an account is counted too, so a block does not tell which names exist.
 */
export function guardPasswordGuess(ctx: Context, account: Account | null, name: string): Promise<{ right(): Promise<void> }> {
  const subject = account ? `user:${account.id}` : `name:${name.toLowerCase()}`;
  return ctx.throttle.guess(ctx, "login_account", [subject], {
    maxBlockSeconds: ACCOUNT_MAX_BLOCK_SECONDS,
    ...(account && { onBlock: auditBlock(ctx, account, "password") }),
  });
}

/** Counts a guess at the account's 2FA or backup codes, from whatever address (as guardPasswordGuess). */
export function guardCodeGuess(ctx: Context, account: Account): Promise<{ right(): Promise<void> }> {
  return ctx.throttle.guess(ctx, "2fa_account", [`user:${account.id}`], {
    maxBlockSeconds: ACCOUNT_MAX_BLOCK_SECONDS,
    onBlock: auditBlock(ctx, account, "code"),
  });
}

/**
 * Records a wrong password or code given for the account, for staff (never players): totals, when
 * and from which address the latest came. One atomic upsert, so concurrent failures all count.
 */
export async function recordSignInFailure(ctx: Context, userId: number, secret: "password" | "code"): Promise<void> {
  const lastAt = new Date(ctx.now() * 1000);
  const passwords = secret === "password" ? 1 : 0;
  const codes = secret === "code" ? 1 : 0;
  await ctx.db.signInFailures.upsert({
    where: { userId },
    create: { userId, passwords, codes, lastAt, lastIp: ctx.ip },
    update: { passwords: { increment: passwords }, codes: { increment: codes }, lastAt, lastIp: ctx.ip },
    select: { userId: true },
  });
}

/** One account's wrong passwords and codes as staff read them. */
export interface SignInFailureSummary {
  user: number;
  passwords: number;
  codes: number;
  /** ISO 8601, as every time outside the config. */
  last_at: string;
  last_ip: string | null;
}

/** The recorded failures of the accounts among `userIds` that have any (for the staff console's member list and editor). */
export async function listSignInFailures(ctx: Context, userIds: number[]): Promise<SignInFailureSummary[]> {
  const rows = await ctx.db.signInFailures.findMany({
    where: { userId: { in: userIds } },
    select: { userId: true, passwords: true, codes: true, lastAt: true, lastIp: true },
    orderBy: { userId: "asc" },
  });
  return rows.map((row) => ({ user: row.userId, passwords: row.passwords, codes: row.codes, last_at: row.lastAt.toISOString(), last_ip: row.lastIp }));
}
