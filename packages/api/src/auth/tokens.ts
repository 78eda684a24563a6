import { createHash, randomBytes } from "node:crypto";
import type { Db, Prisma } from "@flagship/db";

/** 256-bit random key; only its SHA-256 is stored, so a database leak yields no usable token. */
export function generateKey(): string {
  return randomBytes(32).toString("hex");
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export async function issueToken(db: Db | Prisma.TransactionClient, userId: number, impersonatorId: number | null = null): Promise<string> {
  const key = generateKey();
  await db.authToken.create({ data: { keyHash: hashKey(key), userId, impersonatorId } });
  return key;
}
