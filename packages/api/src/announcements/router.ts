import { z } from "zod";
import { authedProcedure, router, staffProcedure } from "../trpc.ts";
import { createAnnouncement, deleteAnnouncement, listAnnouncements } from "./announcements.ts";

export const announcementsRouter = router({
  list: authedProcedure.query(({ ctx }) => listAnnouncements(ctx)),
  create: staffProcedure.input(z.unknown()).mutation(({ ctx, input }) => createAnnouncement(ctx, input)),
  remove: staffProcedure.input(z.object({ id: z.number().int() })).mutation(({ ctx, input }) => deleteAnnouncement(ctx, input.id)),
});
