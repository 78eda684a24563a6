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
 * Looks a key up by its hash. An unknown key, or one of an inactive account, is
 * authentication_failed, never silently anonymous.
 */
export async function resolveActor(db: Db, key: string | null): Promise<Actor | null> {
  if (key === null) return null;
  const token = await db.authToken.findUnique({
    where: { keyHash: hashKey(key) },
    select: {
      id: true,
      impersonatorId: true,
      user: { select: { id: true, username: true, isStaff: true, isActive: true, teamId: true, totpVerified: true } },
    },
  });
  if (!token || !token.user.isActive) throw new AppError("authentication_failed");
  return {
    id: token.user.id,
    username: token.user.username,
    isStaff: token.user.isStaff,
    teamId: token.user.teamId,
    tokenId: token.id,
    impersonatorId: token.impersonatorId,
    has2fa: token.user.totpVerified,
  };
}
