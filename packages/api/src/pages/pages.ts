import { isUniqueViolation } from "@flagship/db";
import { AppError, parseInput } from "@flagship/shared";
import { z } from "zod";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import type { StaffContext } from "../guards.ts";

const ADMIN_URL = "Overwriting admin pages is forbidden.";

/** The address of the home page staff write. */
export const HOME_URL = "/";

/**
 * A page's url is stored and returned exactly as given (RACTF's client uses it as a route path, so
 * `/rules` stays `/rules`); our web app serves it with or without the leading slash. The page at
 * `/` is the event's home page.
 */
const url = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._~\-/]+$/, "Use letters, digits, dashes, dots and slashes only.")
  .refine((u) => u === HOME_URL || /[^/]/.test(u), { message: "Enter a path, for example /rules." })
  .refine((u) => !u.replace(/^\/+/, "").toLowerCase().startsWith("admin"), { message: ADMIN_URL });

export const ZPageInput = z.object({
  url,
  title: z.string().trim().min(1).max(200),
  content: z.string().trim().min(1).max(100_000),
  // Optional rather than defaulted: a patch without it leaves the page's place in the navigation as it is.
  inNav: z.boolean().optional(),
});
export const ZPagePatch = ZPageInput.partial();
export type PageInput = z.infer<typeof ZPageInput>;

export const pageSelect = { id: true, url: true, title: true, content: true, inNav: true } as const;
export type PageView = { id: number; url: string; title: string; content: string; inNav: boolean };

export async function listPages(ctx: Context): Promise<PageView[]> {
  return ctx.db.page.findMany({ select: pageSelect, orderBy: { url: "asc" } });
}

/** A page staff placed in the navigation: its address and title, never its content. */
export type NavPage = { url: string; title: string };

/**
 * The pages the sidebar lists, by title; the home page is never among them (the sidebar has its
 * own entry for it). Only addresses and titles: every visitor's shell asks for this.
 */
export async function listNavPages(ctx: Context): Promise<NavPage[]> {
  const pages = await ctx.db.page.findMany({ where: { inNav: true }, select: { url: true, title: true }, orderBy: { title: "asc" } });
  return pages.filter((p) => servedAt(p.url) !== "");
}

const URL_TAKEN = "A page with this URL already exists.";

function uniqueUrl(error: unknown): never {
  if (isUniqueViolation(error)) throw AppError.field("unique", "url", URL_TAKEN);
  throw error;
}

/** The path a url serves at: `/rules/`, `rules` and `/rules` are one page; the home page serves at "". */
export const servedAt = (url: string) => url.replace(/^\/+|\/+$/g, "");

/** Refuses a url that serves at the same path as another page (pages are few: staff write them). */
async function assertFreeUrl(tx: Pick<Context["db"], "page">, url: string, except?: number): Promise<void> {
  const pages = await tx.page.findMany({ select: { id: true, url: true } });
  if (pages.some((p) => p.id !== except && servedAt(p.url) === servedAt(url))) throw AppError.field("unique", "url", URL_TAKEN);
}

export async function createPage(ctx: StaffContext, input: unknown): Promise<PageView> {
  const data = parseInput(ZPageInput, input);
  return ctx.db
    .$transaction(async (tx) => {
      await assertFreeUrl(tx, data.url);
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
      const found = await tx.page.findUnique({ where: { id }, select: pageSelect });
      if (!found) throw new AppError("not_found");
      if (data.url !== undefined) await assertFreeUrl(tx, data.url, id);
      const page = await tx.page.update({ where: { id }, data, select: pageSelect });
      const fields = Object.keys(data);
      await writeAudit(tx, ctx.actor, "update_page", { id, fields, changes: changedFields(found, page, fields) });
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
