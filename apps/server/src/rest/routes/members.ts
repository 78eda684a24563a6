import { exportMembers, getMember, listMembers, requireStaff, updateMemberAsStaff } from "@flagship/api";
import { pageBody, type RestRoutes } from "../adapter.ts";
import { isStaffExport } from "../exporting.ts";
import { pathId } from "./teams.ts";

/** The member list and other members' profiles; `/member/self/` is the account's own route. */
export function memberRoutes(rest: RestRoutes): void {
  rest.route("/member/", {
    GET: async ({ ctx, query, request }) => {
      const page = (await isStaffExport(ctx, request)) ? await exportMembers(await requireStaff(ctx), query) : await listMembers(ctx, query);
      return { d: pageBody(request, page, page) };
    },
  });
  rest.route("/member/:id/", {
    GET: async ({ ctx, params }) => ({ d: await getMember(ctx, pathId(params.id)) }),
    PATCH: async ({ ctx, params, body }) => {
      const staff = await requireStaff(ctx);
      return { d: await updateMemberAsStaff(staff, pathId(params.id), body) };
    },
  });
}
