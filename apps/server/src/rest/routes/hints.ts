import { createHint, deleteHint, requireStaff, updateHint, useHint } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";
import { pathId } from "./challenges.ts";

export function hintRoutes(rest: RestRoutes): void {
  rest.route("/hints/", {
    POST: async ({ ctx, body }) => ({ d: await createHint(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/hints/use/", { POST: async ({ ctx, body }) => ({ d: await useHint(ctx, body) }) });
  rest.route("/hints/:id/", {
    PATCH: async ({ ctx, params, body }) => ({ d: await updateHint(await requireStaff(ctx), pathId(params.id), body) }),
    DELETE: async ({ ctx, params }) => {
      await deleteHint(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });
}
