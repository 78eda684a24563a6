import { getConfigValue, getExperiments, listConfig, setConfigValue } from "@flagship/api";
import { requireStaff } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";

export function configRoutes(rest: RestRoutes): void {
  rest.route("/config/", { GET: async ({ ctx }) => ({ d: await listConfig(ctx) }) });
  rest.route("/config/:key/", {
    GET: async ({ ctx, params }) => ({ d: await getConfigValue(ctx, params.key ?? "") }),
    POST: async ({ ctx, params, body }) => {
      const staff = await requireStaff(ctx);
      return { d: await setConfigValue(staff, params.key ?? "", body.value), status: 201 };
    },
  });
  rest.route("/experiments/", { GET: async ({ ctx }) => ({ d: await getExperiments(ctx) }) });
}
