import { createHash, randomBytes } from "node:crypto";
import type { Db, Prisma } from "@flagship/db";

type Tx = Db | Prisma.TransactionClient;
export type EmailTokenKind = "verify_email" | "password_reset";

/** How long a mailed link works. */
export const EMAIL_TOKEN_TTL_SECONDS: Record<EmailTokenKind, number> = {
  verify_email: 2 * 24 * 3600,
  password_reset: 3600,
};

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A new single-use token for a mailed link; only its hash is stored. Earlier unused tokens of the
 * same kind stop working, so only the latest mail's link is live.
 */
export async function createEmailToken(db: Tx, userId: number, kind: EmailTokenKind, nowSeconds: number): Promise<string> {
  const token = randomBytes(32).toString("hex");
  const now = new Date(nowSeconds * 1000);
  await db.emailToken.updateMany({ where: { userId, kind, usedAt: null }, data: { usedAt: now } });
  await db.emailToken.create({
    data: { userId, kind, tokenHash: hashToken(token), expiresAt: new Date((nowSeconds + EMAIL_TOKEN_TTL_SECONDS[kind]) * 1000) },
    select: { id: true },
  });
  return token;
}

/** Uses a token up if it is the user's, of that kind, unused and unexpired; true exactly once. */
export async function consumeEmailToken(db: Tx, userId: number, token: string, kind: EmailTokenKind, nowSeconds: number): Promise<boolean> {
  const now = new Date(nowSeconds * 1000);
  const used = await db.emailToken.updateMany({
    where: { userId, kind, tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return used.count === 1;
}

export function verifyLink(publicUrl: string, userId: number, token: string): string {
  return `${publicUrl}/verify?id=${userId}&secret=${token}`;
}

export function resetLink(publicUrl: string, userId: number, token: string): string {
  return `${publicUrl}/password_reset?id=${userId}&secret=${token}`;
}
