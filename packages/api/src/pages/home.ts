import { eventGates } from "@flagship/shared";
import type { Context } from "../context.ts";
import { releasedChallengeWhere } from "../challenges/access.ts";
import { hasStaffPowers } from "../guards.ts";
import { HOME_URL, type PageView, pageSelect, servedAt } from "./pages.ts";

/** A category as the home page shows it to anyone: its name, description and how many challenges it holds. */
export interface HomeCategory {
  id: number;
  name: string;
  description: string;
  challenges: number;
}

export interface HomeView {
  /** The page staff wrote at `/`; null while the event has none (the web app shows its default). */
  page: PageView | null;
  categories: HomeCategory[];
}

/**
 * What the home page draws: staff's page and the event's categories. Only categories with a challenge
 * players may see are listed, and only counts of those: a hidden challenge stays unknown to visitors.
 */
export async function getHome(ctx: Context): Promise<HomeView> {
  // Before the start players cannot see the challenges, so visitors do not learn the categories
  // from the home page either; staff see them to preview the page.
  const started = eventGates(await ctx.config.all(), ctx.now()).started;
  const listed = started || (await hasStaffPowers(ctx));
  const [pages, categories] = await Promise.all([
    ctx.db.page.findMany({ select: pageSelect, orderBy: { id: "asc" } }),
    ctx.db.category.findMany({
      select: { id: true, name: true, description: true, _count: { select: { challenges: { where: releasedChallengeWhere() } } } },
      orderBy: [{ displayOrder: "asc" }, { id: "asc" }],
    }),
  ]);
  return {
    page: pages.find((p) => servedAt(p.url) === servedAt(HOME_URL)) ?? null,
    categories: categories
      .filter((c) => listed && c._count.challenges > 0)
      .map((c) => ({ id: c.id, name: c.name, description: c.description, challenges: c._count.challenges })),
  };
}
