import type { Prisma } from "@flagship/db";
import { AppError, parseInput, ZCreatePersonalTokenInput, ZIdInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { generateKey, hashKey, loginSession } from "./tokens.ts";

/**
 * Personal access tokens: named, expiring API tokens that staff make for scripts and the
 * command-line tool. The key is shown once, at creation; only its SHA-256 is stored, like every
 * token's. They use the same `Authorization: Token <key>` header as a login token.
 */
export interface PersonalTokenView {
  id: number;
  name: string;
  created_at: string;
  expires_at: string;
  expired: boolean;
}

const TOKEN_SELECT = { id: true, name: true, createdAt: true, expiresAt: true } satisfies Prisma.AuthTokenSelect;
const DAY_MS = 24 * 60 * 60 * 1000;

function toView(row: { id: number; name: string | null; createdAt: Date; expiresAt: Date | null }): PersonalTokenView {
  const expires = row.expiresAt ?? new Date(0);
  return { id: row.id, name: row.name ?? "", created_at: row.createdAt.toISOString(), expires_at: expires.toISOString(), expired: expires.getTime() <= Date.now() };
}

export async function createPersonalToken(ctx: StaffContext, raw: unknown): Promise<PersonalTokenView & { token: string }> {
  const input = parseInput(ZCreatePersonalTokenInput, raw);
  const key = generateKey();
  const expiresAt = new Date(Date.now() + input.expires_in_days * DAY_MS);
  const row = await ctx.db.$transaction(async (tx) => {
    // Only a login session makes tokens: a personal token (or staff acting as someone) making
    // another would let a leaked key outlive its own expiry and revocation.
    await loginSession(tx, ctx.actor);
    const created = await tx.authToken.create({ data: { keyHash: hashKey(key), userId: ctx.actor.id, name: input.name, expiresAt }, select: TOKEN_SELECT });
    await writeAudit(tx, ctx.actor, "create_personal_token", { id: created.id, name: input.name, expires_at: expiresAt.toISOString() });
    return created;
  });
  return { ...toView(row), token: key };
}

/** The caller's own personal tokens, newest first (never their keys, which are not kept). */
export async function listPersonalTokens(ctx: StaffContext): Promise<PersonalTokenView[]> {
  const rows = await ctx.db.authToken.findMany({ where: { userId: ctx.actor.id, name: { not: null }, impersonatorId: null }, select: TOKEN_SELECT, orderBy: { id: "desc" } });
  return rows.map(toView);
}

/** Revokes one of the caller's personal tokens; another account's token id is not_found. */
export async function revokePersonalToken(ctx: StaffContext, rawId: unknown): Promise<void> {
  const { id } = parseInput(ZIdInput, { id: rawId });
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.authToken.deleteMany({ where: { id, userId: ctx.actor.id, name: { not: null } } });
    if (count === 0) throw new AppError("not_found");
    await writeAudit(tx, ctx.actor, "revoke_personal_token", { id });
  });
  // Websockets opened with the token close; cached lookups are dropped after every such write.
  await ctx.events.publish({ kind: "internal", name: "sessions_revoked", data: { userId: ctx.actor.id } });
}
