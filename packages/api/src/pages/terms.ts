import type { Context } from "../context.ts";
import { servedAt } from "./pages.ts";

/** The pages a player accepts on signing up, by the path they serve at. */
export const TERMS_PAGES = ["terms", "privacy"] as const;

/** Which of the terms and privacy pages staff have written; sign-up asks to accept these only. */
export async function termsPages(db: Pick<Context["db"], "page">): Promise<(typeof TERMS_PAGES)[number][]> {
  const pages = await db.page.findMany({ select: { url: true } });
  const written = new Set(pages.map((p) => servedAt(p.url)));
  return TERMS_PAGES.filter((path) => written.has(path));
}
