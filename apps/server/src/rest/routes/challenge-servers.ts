import { getInstance, listJobs, liveWorkers, redeployJob, removeJob, requireStaff, resetInstance, submitJob } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";
import { pathId } from "./challenges.ts";

export function challengeServerRoutes(rest: RestRoutes): void {
  rest.route("/challengeserver/instance/:name/", { GET: async ({ ctx, params }) => ({ d: await getInstance(ctx, params.name) }) });
  // RACTF's client does not say which method reset uses; both are served.
  const reset = async ({ ctx, params }: { ctx: Parameters<typeof resetInstance>[0]; params: Record<string, string> }) => ({ d: await resetInstance(ctx, params.name) });
  rest.route("/challengeserver/reset/:name/", { GET: reset, POST: reset });
  rest.route("/challengeserver/submit_job/", {
    POST: async ({ ctx, body }) => ({ d: await submitJob(await requireStaff(ctx), body), status: 201 }),
  });
  // Our extensions: the jobs' state for staff, redeploy and removal.
  rest.route("/challengeserver/jobs/", { GET: async ({ ctx }) => ({ d: await listJobs(await requireStaff(ctx)) }) });
  rest.route("/challengeserver/workers/", { GET: async ({ ctx }) => ({ d: await liveWorkers((await requireStaff(ctx)).db) }) });
  rest.route("/challengeserver/jobs/:id/", {
    DELETE: async ({ ctx, params }) => {
      await removeJob(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });
  rest.route("/challengeserver/jobs/:id/redeploy/", {
    POST: async ({ ctx, params }) => ({ d: await redeployJob(await requireStaff(ctx), pathId(params.id)) }),
  });
}
