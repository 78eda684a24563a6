import { getCountdown } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";

export function statsRoutes(rest: RestRoutes): void {
  rest.route("/stats/version/", { GET: ({ ctx }) => ({ d: { commit_hash: ctx.version, version: ctx.version } }) });
  rest.route("/stats/countdown/", { GET: async ({ ctx }) => ({ d: await getCountdown(ctx) }) });
}
