import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { getCountdown } from "./get-countdown.ts";
import { getFullStats, getStats } from "./get-stats.ts";

export const statsRouter = router({
  version: publicProcedure.query(({ ctx }) => ({ commit_hash: ctx.version, version: ctx.version })),
  countdown: publicProcedure.query(({ ctx }) => getCountdown(ctx)),
  stats: publicProcedure.query(({ ctx }) => getStats(ctx)),
  full: staffProcedure.query(({ ctx }) => getFullStats(ctx)),
});
