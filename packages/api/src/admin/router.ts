import { z } from "zod";
import { router, staffProcedure } from "../trpc.ts";
import { listAuditLog } from "./audit-log.ts";
import { selfCheck } from "./self-check.ts";

export const adminRouter = router({
  auditLog: staffProcedure
    .input(z.object({ limit: z.number().int().optional(), offset: z.number().int().optional() }).optional())
    .query(({ ctx, input }) => listAuditLog(ctx, input)),
  selfCheck: staffProcedure.query(({ ctx }) => selfCheck(ctx)),
});
