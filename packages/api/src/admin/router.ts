import { z } from "zod";
import { router, staffProcedure } from "../trpc.ts";
import { auditLogPage, listAuditLog } from "./audit-log.ts";
import { checkEvent, selfCheck } from "./self-check.ts";
import { disqualifyTeam, listSharingIncidents } from "../challenges/flag-sharing.ts";

export const adminRouter = router({
  auditLog: staffProcedure
    .input(z.object({ limit: z.number().int().optional(), offset: z.number().int().optional() }).optional())
    .query(({ ctx, input }) => listAuditLog(ctx, input)),
  /** The staff console's audit log: paged (cursor is the offset), filtered by action and actor. */
  auditLogPage: staffProcedure
    .input(
      z.object({
        limit: z.number().int().optional(),
        cursor: z.number().int().nullish(),
        action: z.string().max(64).optional(),
        actor: z.string().max(100).optional(),
      }),
    )
    .query(({ ctx, input }) => auditLogPage(ctx, { limit: input.limit, offset: input.cursor ?? 0, action: input.action, actor: input.actor })),
  selfCheck: staffProcedure.query(({ ctx }) => selfCheck(ctx)),
  /** The pre-event check's problems of the event as a whole (nothing to play, the schedule, workers, the accent). */
  eventCheck: staffProcedure.query(({ ctx }) => checkEvent(ctx)),
  /** Suspected flag sharing, newest first (cursor is the offset). */
  sharing: staffProcedure
    .input(z.object({ limit: z.number().int().optional(), cursor: z.number().int().nullish() }))
    .query(({ ctx, input }) => listSharingIncidents(ctx, { limit: input.limit, offset: input.cursor ?? 0 })),
  disqualify: staffProcedure.input(z.object({ incident: z.number().int(), team: z.number().int() })).mutation(({ ctx, input }) => disqualifyTeam(ctx, input)),
});
