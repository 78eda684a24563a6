import { createPage, deletePage, listPages, requireStaff, updatePage } from "@flagship/api";
import { AppError } from "@flagship/shared";
import type { RestRoutes } from "../adapter.ts";

function idOf(params: Record<string, string>): number {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id)) throw new AppError("not_found");
  return id;
}

export function pageRoutes(rest: RestRoutes): void {
  rest.route("/pages/", {
    GET: async ({ ctx }) => ({ d: await listPages(ctx) }),
    POST: async ({ ctx, body }) => ({ d: await createPage(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/pages/:id/", {
    PATCH: async ({ ctx, params, body }) => ({ d: await updatePage(await requireStaff(ctx), idOf(params), body) }),
    DELETE: async ({ ctx, params }) => {
      await deletePage(await requireStaff(ctx), idOf(params));
      return { d: "" };
    },
  });
}
