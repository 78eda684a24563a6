import { createAnnouncement, deleteAnnouncement, listAnnouncements, requireAuth, requireStaff } from "@flagship/api";
import { AppError } from "@flagship/shared";
import type { RestRoutes } from "../adapter.ts";

export function announcementRoutes(rest: RestRoutes): void {
  rest.route("/announcements/", {
    GET: async ({ ctx }) => ({ d: await listAnnouncements(requireAuth(ctx)) }),
    POST: async ({ ctx, body }) => ({ d: await createAnnouncement(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/announcements/:id/", {
    DELETE: async ({ ctx, params }) => {
      const staff = await requireStaff(ctx);
      const id = Number(params.id);
      if (!Number.isSafeInteger(id)) throw new AppError("not_found");
      await deleteAnnouncement(staff, id);
      return { d: "" };
    },
  });
}
