import { z } from "zod";
import { parseInput } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";

export const ZAuditLogInput = z.object({
  limit: z.coerce.number().int().min(1).max(1000).catch(1000),
  offset: z.coerce.number().int().min(0).catch(0),
});

export interface AuditEntry {
  id: number;
  action: string;
  user: number | null;
  username: string;
  time: string;
  extra: unknown;
}

/** GET /admin/audit_log/: staff writes, newest first. */
export async function listAuditLog(ctx: StaffContext, input: unknown = {}): Promise<AuditEntry[]> {
  const { limit, offset } = parseInput(ZAuditLogInput, input ?? {});
  const rows = await ctx.db.auditLog.findMany({
    select: { id: true, action: true, userId: true, username: true, time: true, extra: true },
    orderBy: [{ time: "desc" }, { id: "desc" }],
    take: limit,
    skip: offset,
  });
  return rows.map((r) => ({ id: r.id, action: r.action, user: r.userId, username: r.username, time: r.time.toISOString(), extra: r.extra }));
}
