import type { Prisma } from "@flagship/db";
import { type Page, parseInput, ZPageInput } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";

const OUTBOX_SELECT = { id: true, to: true, subject: true, text: true, createdAt: true } satisfies Prisma.OutboxMailSelect;

export interface OutboxMailView {
  id: number;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/**
 * The development outbox (staff): mail kept when no SMTP transport is configured, newest first.
 * It holds live verification and reset links, which is why only staff may read it.
 */
export async function listOutbox(ctx: StaffContext, raw: unknown): Promise<Page<OutboxMailView> & { delivers: boolean }> {
  const { limit, offset } = parseInput(ZPageInput, raw);
  const [count, rows] = await Promise.all([
    ctx.db.outboxMail.count(),
    ctx.db.outboxMail.findMany({ select: OUTBOX_SELECT, orderBy: { id: "desc" }, skip: offset, take: limit }),
  ]);
  return {
    count,
    total: count,
    delivers: ctx.mail.delivers,
    results: rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, created_at: r.createdAt.toISOString() })),
  };
}
