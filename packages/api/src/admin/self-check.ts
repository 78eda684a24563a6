import { accentContrastShortfall, checkChallenge, type SelfCheckEntry } from "@flagship/shared";
import { anyWorkerAlive } from "../challenge-servers/tier.ts";
import type { StaffContext } from "../guards.ts";

/** GET /admin/self_check/: every challenge's problems, for fixing before the event starts. */
export async function selfCheck(ctx: StaffContext): Promise<SelfCheckEntry[]> {
  const challenges = await ctx.db.challenge.findMany({
    select: { id: true, score: true, flagType: true, flagMetadata: true, challengeType: true },
    orderBy: { id: "asc" },
  });
  return challenges.flatMap(checkChallenge);
}

/** A problem of the event as a whole, found by the pre-event check; `ratio` only for the accent's contrast. */
export interface EventCheckEntry {
  issue: "no_categories" | "no_challenges" | "start_past" | "end_before_start" | "jobs_without_worker" | "accent_contrast";
  ratio?: number;
}

/**
 * The event's own problems before it starts: nothing to play, a schedule that cannot happen as set,
 * challenge servers that no worker would start, and an accent colour that white text (a filled
 * button, the sidebar's current entry) or the page (a link) would not read against.
 */
export async function checkEvent(ctx: StaffContext): Promise<EventCheckEntry[]> {
  const [config, categories, challenges, jobs] = await Promise.all([ctx.config.all(), ctx.db.category.count(), ctx.db.challenge.count(), ctx.db.challengeServerJob.count()]);
  const entries: EventCheckEntry[] = [];
  if (categories === 0) entries.push({ issue: "no_categories" });
  if (challenges === 0) entries.push({ issue: "no_challenges" });
  const now = Date.now() / 1000;
  if (config.start_time !== null && config.start_time < now) entries.push({ issue: "start_past" });
  if (config.start_time !== null && config.end_time !== null && config.end_time <= config.start_time) entries.push({ issue: "end_before_start" });
  if (jobs > 0 && !(await anyWorkerAlive(ctx.db))) entries.push({ issue: "jobs_without_worker" });
  const accent = config.theme?.primary;
  if (accent) {
    const ratio = accentContrastShortfall(accent, config.theme?.light ?? "#ffffff");
    if (ratio !== null) entries.push({ issue: "accent_contrast", ratio });
  }
  return entries;
}
