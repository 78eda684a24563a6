import type { Db } from "@flagship/db";
import { AppError } from "@flagship/shared";
import type { Actor, Services } from "../context.ts";
import type { ConfigStore } from "../config/config-store.ts";
import { hashKey } from "./tokens.ts";

/** Parses `Authorization: Token <key>`; anything else is no token. */
export function parseAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Token\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Looks a key up by its hash. An unknown key, an expired one, one of an inactive account, a
 * personal access token of an account that is no longer staff, or an impersonation whose staff
 * member is no longer active staff or whose starting session has ended is authentication_failed,
 * never silently anonymous. Answers when the token ends as well, so a cache never outlives it.
 */
export async function resolveToken(db: Db, key: string): Promise<{ actor: Actor; expiresAt: number | null }> {
  // One joined query: every authenticated request pays for this lookup, and the relation-style
  // read would cost several round trips. The impersonator and the starting session are joined by
  // primary key, and only for impersonation tokens.
  const rows = await db.$queryRaw<
    {
      token_id: number;
      impersonator_id: number | null;
      name: string | null;
      expires_at: Date | null;
      session_id: number | null;
      session_expires_at: Date | null;
      impersonator_staff: boolean | null;
      impersonator_active: boolean | null;
      impersonator_2fa: boolean | null;
      id: number;
      username: string;
      is_staff: boolean;
      is_active: boolean;
      team_id: number | null;
      totp_verified: boolean;
    }[]
  >`SELECT t.id AS token_id, t.impersonator_id, t.name, t.expires_at, t.session_id, p.expires_at AS session_expires_at,
           s.is_staff AS impersonator_staff, s.is_active AS impersonator_active, s.totp_verified AS impersonator_2fa,
           u.id, u.username::text AS username, u.is_staff, u.is_active, u.team_id, u.totp_verified
      FROM auth_tokens t JOIN users u ON u.id = t.user_id
      LEFT JOIN users s ON s.id = t.impersonator_id
      LEFT JOIN auth_tokens p ON p.id = t.session_id
     WHERE t.key_hash = ${hashKey(key)}`;
  const row = rows[0];
  if (!row || !row.is_active) throw new AppError("authentication_failed");
  // An impersonation ends when its session does, whichever end comes first.
  const end = Math.min(row.expires_at?.getTime() ?? Infinity, row.session_expires_at?.getTime() ?? Infinity);
  if (end <= Date.now()) throw new AppError("authentication_failed");
  // Personal access tokens are a staff tool: one outlives its owner's staff role by no request.
  if (row.name !== null && !row.is_staff) throw new AppError("authentication_failed");
  // Nor does an impersonation outlive its staff member's rights, or stand without its session
  // (the database deletes it with the session; one without any predates the link).
  if (row.impersonator_id !== null && (row.session_id === null || !row.impersonator_staff || !row.impersonator_active)) {
    throw new AppError("authentication_failed");
  }
  return {
    actor: {
      id: row.id,
      username: row.username,
      isStaff: row.is_staff,
      teamId: row.team_id,
      tokenId: row.token_id,
      impersonatorId: row.impersonator_id,
      has2fa: row.totp_verified,
      ...(row.impersonator_id !== null && { impersonatorHas2fa: row.impersonator_2fa === true }),
    },
    expiresAt: end === Infinity ? null : end,
  };
}

/**
 * An impersonation is a staff power: with enable_force_admin_2fa on, one started by a staff member
 * without two-factor authentication stops working (as their other staff powers do) until they
 * enrol, including one that was running when the setting was turned on.
 */
export async function impersonationStands(config: ConfigStore, actor: Actor): Promise<boolean> {
  if (actor.impersonatorId === null || actor.impersonatorHas2fa !== false) return true;
  return !(await config.get("enable_force_admin_2fa"));
}

export async function resolveActor(services: Pick<Services, "db" | "config">, key: string | null): Promise<Actor | null> {
  if (key === null) return null;
  const { actor } = await resolveToken(services.db, key);
  if (!(await impersonationStands(services.config, actor))) throw new AppError("authentication_failed");
  return actor;
}
