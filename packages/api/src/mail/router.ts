import { router, staffProcedure } from "../trpc.ts";
import { listOutbox } from "./outbox.ts";

export const mailRouter = router({
  outbox: staffProcedure
    .input((value: unknown) => value as { limit?: number; offset?: number } | undefined)
    .query(({ ctx, input }) => listOutbox(ctx, input ?? {})),
});
