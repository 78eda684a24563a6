import { ZSetConfigInput } from "@flagship/shared";
import { z } from "zod";
import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { getConfigValue, getExperiments, listConfig } from "./get-config.ts";
import { setConfigValue, setConfigValues } from "./set-config.ts";

export const configRouter = router({
  list: publicProcedure.query(({ ctx }) => listConfig(ctx)),
  get: publicProcedure.input(z.object({ key: z.string().max(100) })).query(({ ctx, input }) => getConfigValue(ctx, input.key)),
  set: staffProcedure.input(ZSetConfigInput).mutation(({ ctx, input }) => setConfigValue(ctx, input.key, input.value)),
  setMany: staffProcedure.input(z.record(z.string(), z.unknown())).mutation(({ ctx, input }) => setConfigValues(ctx, input)),
  experiments: publicProcedure.query(({ ctx }) => getExperiments(ctx)),
});
