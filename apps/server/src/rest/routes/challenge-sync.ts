import { endChallengeSync, renewChallengeSync, requireStaff, startChallengeSync } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";

/** The challenge sync's lease (one sync at a time): taken, renewed while it writes, given back. */
export function challengeSyncRoutes(rest: RestRoutes): void {
  rest.route("/challenges/sync/lease/", {
    POST: async ({ ctx, body }) => ({ d: await startChallengeSync(await requireStaff(ctx), body), status: 201 }),
    PATCH: async ({ ctx, body }) => ({ d: await renewChallengeSync(await requireStaff(ctx), body) }),
    DELETE: async ({ ctx, body }) => {
      await endChallengeSync(await requireStaff(ctx), body);
      return { d: "" };
    },
  });
}
