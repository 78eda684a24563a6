import { z } from "zod";
import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { checkPages } from "./check-pages.ts";
import { getHome } from "./home.ts";
import { createPage, deletePage, listNavPages, listPages, updatePage } from "./pages.ts";

export const pagesRouter = router({
  list: publicProcedure.query(({ ctx }) => listPages(ctx)),
  nav: publicProcedure.query(({ ctx }) => listNavPages(ctx)),
  home: publicProcedure.query(({ ctx }) => getHome(ctx)),
  check: staffProcedure.query(({ ctx }) => checkPages(ctx)),
  create: staffProcedure.input(z.unknown()).mutation(({ ctx, input }) => createPage(ctx, input)),
  update: staffProcedure.input(z.object({ id: z.number().int(), data: z.unknown() })).mutation(({ ctx, input }) => updatePage(ctx, input.id, input.data)),
  remove: staffProcedure.input(z.object({ id: z.number().int() })).mutation(({ ctx, input }) => deletePage(ctx, input.id)),
});
