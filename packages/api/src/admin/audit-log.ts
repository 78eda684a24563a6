import type { Prisma } from "@flagship/db";
import { z } from "zod";
import { parseInput } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";

export const ZAuditLogInput = z.object({
  limit: z.coerce.number().int().min(1).max(1000).catch(1000),
  offset: z.coerce.number().int().min(0).catch(0),
  /** Only entries of this action (exact). */
  action: z.string().trim().max(64).optional().catch(undefined),
  /** Only entries by staff whose username contains this (any case). */
  actor: z.string().trim().max(100).optional().catch(undefined),
});

export interface AuditEntry {
  id: number;
  action: string;
  user: number | null;
  username: string;
  time: string;
  extra: unknown;
}

const SELECT = { id: true, action: true, userId: true, username: true, time: true, extra: true } satisfies Prisma.AuditLogSelect;

function whereOf(input: z.infer<typeof ZAuditLogInput>): Prisma.AuditLogWhereInput {
  return {
    ...(input.action && { action: input.action }),
    ...(input.actor && { username: { contains: input.actor, mode: "insensitive" } }),
  };
}

function toEntry(r: Prisma.AuditLogGetPayload<{ select: typeof SELECT }>): AuditEntry {
  return { id: r.id, action: r.action, user: r.userId, username: r.username, time: r.time.toISOString(), extra: r.extra };
}

/** GET /admin/audit_log/: staff writes, newest first. */
export async function listAuditLog(ctx: StaffContext, input: unknown = {}): Promise<AuditEntry[]> {
  const parsed = parseInput(ZAuditLogInput, input ?? {});
  const rows = await ctx.db.auditLog.findMany({
    select: SELECT,
    where: whereOf(parsed),
    orderBy: [{ time: "desc" }, { id: "desc" }],
    take: parsed.limit,
    skip: parsed.offset,
  });
  return rows.map(toEntry);
}

/**
 * The audit log page of the staff console: one page of entries newest first, filtered by action
 * and actor, with the total that matches and every action recorded so far (for the filter).
 */
export async function auditLogPage(ctx: StaffContext, input: unknown = {}): Promise<{ count: number; results: AuditEntry[]; actions: string[] }> {
  const parsed = parseInput(ZAuditLogInput, input ?? {});
  const where = whereOf(parsed);
  const [count, rows, actions] = await Promise.all([
    ctx.db.auditLog.count({ where }),
    ctx.db.auditLog.findMany({ select: SELECT, where, orderBy: [{ time: "desc" }, { id: "desc" }], take: parsed.limit, skip: parsed.offset }),
    ctx.db.auditLog.groupBy({ by: ["action"], orderBy: { action: "asc" } }),
  ]);
  return { count, results: rows.map(toEntry), actions: actions.map((a) => a.action) };
}
