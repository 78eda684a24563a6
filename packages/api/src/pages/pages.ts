import { isUniqueViolation } from "@flagship/db";
import { AppError, parseInput } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import type { StaffContext } from "../guards.ts";

const ADMIN_URL = "Overwriting admin pages is forbidden.";

/** A page lives at `/url`; leading and trailing slashes are normalised away. */
const url = z
  .string()
  .trim()
  .max(200)
  .transform((u) => u.replace(/^\/+|\/+$/g, ""))
  .pipe(
    z
      .string()
      .min(1)
      .regex(/^[A-Za-z0-9._~\-/]+$/, "Use letters, digits, dashes, dots and slashes only.")
      .refine((u) => !u.toLowerCase().startsWith("admin"), { message: ADMIN_URL }),
  );

export const ZPageInput = z.object({
  url,
  title: z.string().trim().min(1).max(200),
  content: z.string().trim().min(1).max(100_000),
});
export const ZPagePatch = ZPageInput.partial();
export type PageInput = z.infer<typeof ZPageInput>;

const pageSelect = { id: true, url: true, title: true, content: true } as const;
export type PageView = { id: number; url: string; title: string; content: string };

export async function listPages(ctx: Context): Promise<PageView[]> {
  return ctx.db.page.findMany({ select: pageSelect, orderBy: { url: "asc" } });
}

function uniqueUrl(error: unknown): never {
  if (isUniqueViolation(error)) throw AppError.field("unique", "url", "A page with this URL already exists.");
  throw error;
}

export async function createPage(ctx: StaffContext, input: unknown): Promise<PageView> {
  const data = parseInput(ZPageInput, input);
  return ctx.db
    .$transaction(async (tx) => {
      const page = await tx.page.create({ data, select: pageSelect });
      await writeAudit(tx, ctx.actor, "create_page", { id: page.id, url: page.url });
      return page;
    })
    .catch(uniqueUrl);
}

export async function updatePage(ctx: StaffContext, id: number, input: unknown): Promise<PageView> {
  const data = parseInput(ZPagePatch, input);
  return ctx.db
    .$transaction(async (tx) => {
      const found = await tx.page.findUnique({ where: { id }, select: { id: true } });
      if (!found) throw new AppError("not_found");
      const page = await tx.page.update({ where: { id }, data, select: pageSelect });
      await writeAudit(tx, ctx.actor, "update_page", { id, fields: Object.keys(data) });
      return page;
    })
    .catch(uniqueUrl);
}

export async function deletePage(ctx: StaffContext, id: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const removed = await tx.page.deleteMany({ where: { id } });
    if (removed.count === 0) throw new AppError("not_found");
    await writeAudit(tx, ctx.actor, "delete_page", { id });
  });
}
