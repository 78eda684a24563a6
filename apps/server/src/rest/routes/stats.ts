import { getCountdown, getFullStats, getStats, requireStaff } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";

export function statsRoutes(rest: RestRoutes): void {
  rest.route("/stats/version/", { GET: ({ ctx }) => ({ d: { commit_hash: ctx.version, version: ctx.version } }) });
  rest.route("/stats/countdown/", { GET: async ({ ctx }) => ({ d: await getCountdown(ctx) }) });
  rest.route("/stats/stats/", { GET: async ({ ctx }) => ({ d: await getStats(ctx) }) });
  rest.route("/stats/full/", { GET: async ({ ctx }) => ({ d: await getFullStats(await requireStaff(ctx)) }) });
}
