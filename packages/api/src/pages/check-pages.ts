import type { StaffContext } from "../guards.ts";
import { HOME_URL, servedAt } from "./pages.ts";
import { termsPages } from "./terms.ts";

/** A page the event should have before it starts: `url` is where staff write it. */
export interface PageCheckEntry {
  issue: "terms_missing" | "privacy_missing" | "home_default";
  url: string;
}

/**
 * The pages to write before the event: the terms and privacy pages while players can sign up with a
 * password (the footer links them, and sign-up asks no one to accept what does not exist), and the
 * home page while it is still the default built from the settings.
 */
export async function checkPages(ctx: StaffContext): Promise<PageCheckEntry[]> {
  const [config, written, pages] = await Promise.all([ctx.config.all(), termsPages(ctx.db), ctx.db.page.findMany({ select: { url: true } })]);
  const entries: PageCheckEntry[] = [];
  const signUps = config.enable_registration && config.registration_provider !== "oidc";
  if (signUps && !written.includes("terms")) entries.push({ issue: "terms_missing", url: "/terms" });
  if (signUps && !written.includes("privacy")) entries.push({ issue: "privacy_missing", url: "/privacy" });
  if (!pages.some((p) => servedAt(p.url) === servedAt(HOME_URL))) entries.push({ issue: "home_default", url: HOME_URL });
  return entries;
}
