import type { Db, Prisma } from "@flagship/db";
import type { Actor } from "../context.ts";

type Tx = Db | Prisma.TransactionClient;

/**
 * Records a staff write, or an event staff should see that no one signed in caused (`actor` null,
 * e.g. an account's sign-in blocked after wrong passwords). Called inside the write's transaction
 * where there is one.
 */
export async function writeAudit(db: Tx, actor: Pick<Actor, "id" | "username"> | null, action: string, extra: Record<string, unknown> = {}): Promise<void> {
  await db.auditLog.create({
    data: { action, userId: actor?.id ?? null, username: actor?.username ?? "", extra: extra as Prisma.InputJsonValue },
  });
}

/** Fields whose values the audit log never holds (flags, passwords, tokens, secrets), only their names. */
export const SECRET_FIELD = /^(flag|flag_metadata|flagMetadata|password\d?|old_password|backup_codes|key|registry_auth|registryAuth)$|token|secret/i;

export type FieldChanges = Record<string, { old: unknown; new: unknown }>;

/** A stored value as JSON holds it: times as ISO text, big integers (file sizes) as numbers. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return Number(value);
  return value;
}

/**
 * What an update changed, `{field: {old, new}}` (the shape upstream's audit log records), for each
 * API field given whose value differs between the record read before the update and after it.
 * A field is read from the record's column of the same name in camel case unless `columns` names
 * another. Secret fields are left out: the entry's field list still names them.
 */
export function changedFields(before: object, after: object, fields: readonly string[], columns: Record<string, string> = {}): FieldChanges {
  const changes: FieldChanges = {};
  for (const field of fields) {
    if (SECRET_FIELD.test(field)) continue;
    const column = columns[field] ?? field.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    const old = plain((before as Record<string, unknown>)[column]);
    const next = plain((after as Record<string, unknown>)[column]);
    if (JSON.stringify(old) !== JSON.stringify(next)) changes[field] = { old: old ?? null, new: next ?? null };
  }
  return changes;
}
