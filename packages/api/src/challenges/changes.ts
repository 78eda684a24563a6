import { AppError, releasedToPlayers, unlockError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { EVENT_CODES } from "../events/publisher.ts";
import { getCatalog, invalidateCatalog } from "./catalog.ts";
import { type ChallengeView, challengeView, type CategoryView, categoryView } from "./views.ts";

/**
 * After a staff write: every copy drops its catalog and clients hear event 6 per challenge. Clients
 * fetch the challenge an event names, so a hidden one is announced to staff only: a player's fetch
 * of it is 404, which RACTF's client does not survive. A challenge gone meanwhile is announced to
 * nobody, for the same reason. One scheduled for later is hidden from players until then (its
 * release is announced by the catalog, catalog.ts).
 */
export async function announceChallengeChanges(ctx: Context, challengeIds: number[]): Promise<void> {
  await invalidateCatalog(ctx);
  if (challengeIds.length === 0) return;
  const rows = await ctx.db.challenge.findMany({ where: { id: { in: challengeIds } }, select: { id: true, hidden: true, scheduledAt: true } });
  const hidden = new Map(rows.map((r) => [r.id, !releasedToPlayers(r, Date.now() / 1000)]));
  for (const challengeId of challengeIds) {
    if (!hidden.has(challengeId)) continue;
    const audience = hidden.get(challengeId) ? { staff: true as const } : { all: true as const };
    await ctx.events.publish({ kind: "socket", audience, payload: { event_code: EVENT_CODES.challengeUpdate, challenge_id: challengeId } });
  }
}

const NOBODY = { teamName: null, solved: new Set<number>(), hintsUsed: new Set<number>(), votes: new Map<number, boolean>() };

/** The staff view of a challenge as stored now (for create and update replies). */
export async function staffChallengeView(ctx: Context, id: number): Promise<ChallengeView> {
  const challenge = (await getCatalog(ctx)).challenges.get(id);
  if (!challenge) throw new AppError("not_found");
  return challengeView(challenge, NOBODY, true) as ChallengeView;
}

export async function staffCategoryView(ctx: Context, id: number): Promise<CategoryView> {
  const category = (await getCatalog(ctx)).categories.find((c) => c.id === id);
  if (!category) throw new AppError("not_found");
  return categoryView(category, NOBODY, true);
}

/**
 * The unlock expression is checked before the schema runs, so that an expression of only
 * whitespace answers `invalid` with the parser's message rather than the generic `blank`.
 */
export function assertValidUnlock(input: unknown): void {
  if (typeof input !== "object" || input === null || !("unlock_requirements" in input)) return;
  const value = (input as { unlock_requirements: unknown }).unlock_requirements;
  if (typeof value !== "string" && value !== null) return;
  const message = unlockError(value);
  if (message) throw new AppError("invalid", { message, details: { unlock_requirements: [message] } });
}
