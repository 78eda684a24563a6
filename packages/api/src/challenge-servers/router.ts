import { z } from "zod";
import { authedProcedure, router, staffProcedure } from "../trpc.ts";
import { drainWorker } from "./drain-worker.ts";
import { getInstance, resetInstance } from "./instances.ts";
import { listJobs, redeployJob, removeJob, submitJob } from "./jobs.ts";
import { getTierOverview } from "./overview.ts";
import { liveWorkers } from "./tier.ts";

const byName = z.object({ name: z.string() });
const byId = z.object({ id: z.number().int() });

export const challengeServersRouter = router({
  instance: authedProcedure.input(byName).query(({ ctx, input }) => getInstance(ctx, input.name)),
  reset: authedProcedure.input(byName).mutation(({ ctx, input }) => resetInstance(ctx, input.name)),
  submitJob: staffProcedure.input(z.record(z.string(), z.unknown())).mutation(({ ctx, input }) => submitJob(ctx, input)),
  jobs: staffProcedure.query(({ ctx }) => listJobs(ctx)),
  workers: staffProcedure.query(({ ctx }) => liveWorkers(ctx.db)),
  overview: staffProcedure.query(({ ctx }) => getTierOverview(ctx)),
  drainWorker: staffProcedure.input(z.object({ id: z.string() })).mutation(({ ctx, input }) => drainWorker(ctx, input)),
  redeploy: staffProcedure.input(byId).mutation(({ ctx, input }) => redeployJob(ctx, input.id)),
  remove: staffProcedure.input(byId).mutation(({ ctx, input }) => removeJob(ctx, input.id)),
});
