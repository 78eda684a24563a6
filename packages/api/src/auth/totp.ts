import { createHash, randomInt } from "node:crypto";
import type { Db, Prisma } from "@flagship/db";
import { LIMITS } from "@flagship/shared";
import { generateSecret, generateURI, verify } from "otplib";

type Tx = Db | Prisma.TransactionClient;

/** TOTP per the contract: SHA-1, 30 s, 6 digits. */
const PERIOD = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, issuer: string, label: string): string {
  return generateURI({ issuer, label, secret, algorithm: "sha1", digits: 6, period: PERIOD });
}

/**
 * Checks a TOTP code with one step of drift either way, refusing a code whose time step is not
 * later than the last one accepted for the account. The step is recorded with a conditional
 * update, so two concurrent requests with the same code cannot both pass (no replay).
 */
export async function acceptTotp(
  db: Tx,
  user: { id: number; totpSecret: string | null; totpLastStep: bigint | null },
  code: string,
  nowSeconds: number,
): Promise<boolean> {
  if (!user.totpSecret || !/^\d{6}$/.test(code)) return false;
  const last = user.totpLastStep === null ? undefined : Number(user.totpLastStep);
  const result = await verify({
    secret: user.totpSecret,
    token: code,
    epoch: nowSeconds,
    period: PERIOD,
    epochTolerance: PERIOD,
    ...(last !== undefined && { afterTimeStep: last }),
  }).catch(() => ({ valid: false as const }));
  // The TOTP strategy's result always carries the matched time step.
  if (!result.valid || !("timeStep" in result)) return false;
  const step = BigInt(result.timeStep);
  const claimed = await db.user.updateMany({
    where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return claimed.count === 1;
}

// No 0/o, 1/l/i: backup codes are typed from paper.
const BACKUP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export function newBackupCodes(): string[] {
  return Array.from({ length: LIMITS.backupCodeCount }, () =>
    Array.from({ length: LIMITS.backupCodeLength }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]).join(""),
  );
}

/** Codes are stored hashed with the user id, so equal codes of two users never share a hash. */
export function hashBackupCode(userId: number, code: string): string {
  return createHash("sha256").update(`${userId}:${code.trim().toLowerCase()}`).digest("hex");
}

/** Replaces the user's backup codes; the new ones are returned once and only their hashes kept. */
export async function replaceBackupCodes(db: Tx, userId: number): Promise<string[]> {
  const codes = newBackupCodes();
  await db.backupCode.deleteMany({ where: { userId } });
  await db.backupCode.createMany({ data: codes.map((code) => ({ userId, codeHash: hashBackupCode(userId, code) })) });
  return codes;
}

/** Uses up a backup code; a conditional update makes each code work exactly once. */
export async function consumeBackupCode(db: Tx, userId: number, code: string): Promise<boolean> {
  const used = await db.backupCode.updateMany({
    where: { userId, codeHash: hashBackupCode(userId, code), usedAt: null },
    data: { usedAt: new Date() },
  });
  return used.count === 1;
}
