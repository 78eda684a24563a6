import { publicProcedure, router } from "../trpc.ts";
import { getCountdown } from "./get-countdown.ts";

export const statsRouter = router({
  version: publicProcedure.query(({ ctx }) => ({ commit_hash: ctx.version, version: ctx.version })),
  countdown: publicProcedure.query(({ ctx }) => getCountdown(ctx)),
});
