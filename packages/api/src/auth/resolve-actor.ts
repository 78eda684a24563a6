import type { Db } from "@flagship/db";
import { AppError } from "@flagship/shared";
import type { Actor } from "../context.ts";
import { hashKey } from "./tokens.ts";

/** Parses `Authorization: Token <key>`; anything else is no token. */
export function parseAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Token\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Looks a key up by its hash. An unknown key, an expired one, one of an inactive account, or a
 * personal access token of an account that is no longer staff is authentication_failed, never
 * silently anonymous. Answers when the token ends as well, so a cache never outlives it.
 */
export async function resolveToken(db: Db, key: string): Promise<{ actor: Actor; expiresAt: number | null }> {
  // One joined query: every authenticated request pays for this lookup, and the relation-style
  // read would cost two round trips.
  const rows = await db.$queryRaw<
    {
      token_id: number;
      impersonator_id: number | null;
      name: string | null;
      expires_at: Date | null;
      id: number;
      username: string;
      is_staff: boolean;
      is_active: boolean;
      team_id: number | null;
      totp_verified: boolean;
    }[]
  >`SELECT t.id AS token_id, t.impersonator_id, t.name, t.expires_at, u.id, u.username::text AS username, u.is_staff, u.is_active, u.team_id, u.totp_verified
      FROM auth_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.key_hash = ${hashKey(key)}`;
  const row = rows[0];
  if (!row || !row.is_active) throw new AppError("authentication_failed");
  if (row.expires_at !== null && row.expires_at.getTime() <= Date.now()) throw new AppError("authentication_failed");
  // Personal access tokens are a staff tool: one outlives its owner's staff role by no request.
  if (row.name !== null && !row.is_staff) throw new AppError("authentication_failed");
  return {
    actor: {
      id: row.id,
      username: row.username,
      isStaff: row.is_staff,
      teamId: row.team_id,
      tokenId: row.token_id,
      impersonatorId: row.impersonator_id,
      has2fa: row.totp_verified,
    },
    expiresAt: row.expires_at?.getTime() ?? null,
  };
}

export async function resolveActor(db: Db, key: string | null): Promise<Actor | null> {
  if (key === null) return null;
  return (await resolveToken(db, key)).actor;
}
