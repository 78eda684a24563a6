import { AppError, parseInput } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { AuthedContext, StaffContext } from "../guards.ts";
import { EVENT_CODES } from "../events/publisher.ts";

export const ZCreateAnnouncementInput = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(10_000),
});
export type CreateAnnouncementInput = z.infer<typeof ZCreateAnnouncementInput>;

const announcementSelect = { id: true, title: true, body: true, timestamp: true } as const;

export interface AnnouncementView {
  id: number;
  title: string;
  body: string;
  timestamp: string;
}

const view = (row: { id: number; title: string; body: string; timestamp: Date }): AnnouncementView => ({
  ...row,
  timestamp: row.timestamp.toISOString(),
});

/** Newest first, for logged-in users. */
export async function listAnnouncements(ctx: AuthedContext): Promise<AnnouncementView[]> {
  const rows = await ctx.db.announcement.findMany({ select: announcementSelect, orderBy: { id: "desc" }, take: 200 });
  return rows.map(view);
}

/** Posts an announcement (staff), audited, and sends event 5 to everyone. */
export async function createAnnouncement(ctx: StaffContext, input: unknown): Promise<AnnouncementView> {
  const data = parseInput(ZCreateAnnouncementInput, input);
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.announcement.create({ data, select: announcementSelect });
    await writeAudit(tx, ctx.actor, "create_announcement", { id: created.id, title: created.title });
    return created;
  });
  const announcement = view(row);
  await ctx.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: EVENT_CODES.announcement, ...announcement } });
  return announcement;
}

export async function deleteAnnouncement(ctx: StaffContext, id: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const removed = await tx.announcement.deleteMany({ where: { id } });
    if (removed.count === 0) throw new AppError("not_found");
    await writeAudit(tx, ctx.actor, "delete_announcement", { id });
  });
}
