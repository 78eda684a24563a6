import { createHash, randomBytes } from "node:crypto";
import type { Db, Prisma } from "@flagship/db";
import { AppError } from "@flagship/shared";
import type { Actor } from "../context.ts";
import type { EventPublisher } from "../events/publisher.ts";

/** 256-bit random key; only its SHA-256 is stored, so a database leak yields no usable token. */
export function generateKey(): string {
  return randomBytes(32).toString("hex");
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** What marks a token other than a plain login session: an impersonation's staff member, the session that began it, an end. */
export type TokenLinks = Pick<Prisma.AuthTokenUncheckedCreateInput, "impersonatorId" | "sessionId" | "expiresAt">;

export async function issueToken(db: Db | Prisma.TransactionClient, userId: number, links: TokenLinks = {}): Promise<string> {
  const key = generateKey();
  await db.authToken.create({ data: { keyHash: hashKey(key), userId, ...links } });
  return key;
}

/**
 * The caller's token, when it is a login session: neither a personal access token nor an
 * impersonation. Only such a session makes tokens, starts an impersonation or links a single
 * sign-on identity; otherwise a leaked key could outlive its own expiry and revocation through
 * what it made. Within a transaction the row stays locked (FOR SHARE) until it ends, so a logout
 * running alongside cannot delete it between this check and a token made from it.
 */
export async function loginSession(db: Db | Prisma.TransactionClient, actor: Actor): Promise<{ id: number; expiresAt: Date | null }> {
  if (actor.impersonatorId !== null) throw new AppError("permission_denied");
  const rows = await db.$queryRaw<{ id: number; name: string | null; impersonator_id: number | null; expires_at: Date | null }[]>`
    SELECT id, name, impersonator_id, expires_at FROM auth_tokens WHERE id = ${actor.tokenId} FOR SHARE`;
  const row = rows[0];
  // Gone since the request began: signed out meanwhile.
  if (!row) throw new AppError("authentication_failed");
  if (row.name !== null || row.impersonator_id !== null) throw new AppError("permission_denied");
  return { id: row.id, expiresAt: row.expires_at };
}

/**
 * The tokens that need staff rights: an account's personal access tokens and the impersonations
 * it started. They go when the account loses those rights, so giving them back later revives none.
 */
export function staffTokensOf(userId: number): Prisma.AuthTokenWhereInput {
  return { OR: [{ userId, name: { not: null } }, { impersonatorId: userId }] };
}

/** Every token an account holds or started: its sessions, personal tokens, impersonations of it and by it. */
export function allTokensOf(userId: number): Prisma.AuthTokenWhereInput {
  return { OR: [{ userId }, { impersonatorId: userId }] };
}

/**
 * Deletes the tokens `where` matches and, by the foreign key's cascade, the impersonations they
 * started. Answers the users whose tokens went (the impersonated among them), whose websockets
 * must check theirs again (`sessionsRevoked`, once the transaction has committed).
 */
export async function deleteTokens(db: Db | Prisma.TransactionClient, where: Prisma.AuthTokenWhereInput): Promise<number[]> {
  // Read first: cascaded rows are not reported by the delete. An impersonation started after this
  // read waits on its session's lock (lockLoginSession) and only then is deleted, before any
  // websocket could have opened with its key.
  const owners = await db.authToken.findMany({ where: { OR: [where, { session: where }] }, select: { userId: true }, distinct: ["userId"] });
  await db.authToken.deleteMany({ where });
  return owners.map((o) => o.userId);
}

/** Tells every copy's websocket server that these users' tokens ended: their sockets keep only live ones. */
export async function sessionsRevoked(events: EventPublisher, userIds: Iterable<number>): Promise<void> {
  await Promise.all([...new Set(userIds)].map((userId) => events.publish({ kind: "internal", name: "sessions_revoked", data: { userId } })));
}
