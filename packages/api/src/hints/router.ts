import { z } from "zod";
import { authedProcedure, router, staffProcedure } from "../trpc.ts";
import { createHint, deleteHint, updateHint } from "./manage-hints.ts";
import { useHint } from "./use-hint.ts";

const body = z.record(z.string(), z.unknown());
const byId = z.object({ id: z.number().int() });

export const hintsRouter = router({
  use: authedProcedure.input(body).mutation(({ ctx, input }) => useHint(ctx, input)),
  create: staffProcedure.input(body).mutation(({ ctx, input }) => createHint(ctx, input)),
  update: staffProcedure.input(byId.extend({ patch: body })).mutation(({ ctx, input }) => updateHint(ctx, input.id, input.patch)),
  delete: staffProcedure.input(byId).mutation(({ ctx, input }) => deleteHint(ctx, input.id)),
});
