import type { Db } from "@flagship/db";
import type { Context } from "../context.ts";
import { isResync } from "../events/publisher.ts";
import { invalidateOwnViews } from "../members/own-views.ts";

/** What one team and user have done, for judging locks and filling in per-player fields. */
export interface PlayerState {
  /** The team's name (null without a team), for event payloads. */
  teamName: string | null;
  solved: Set<number>;
  hintsUsed: Set<number>;
  votes: Map<number, boolean>;
}

/**
 * The team's solves and hint uses and the user's votes, in one round trip whatever the number of
 * challenges.
 */
export async function loadPlayerState(db: Db, userId: number, teamId: number | null): Promise<PlayerState> {
  const rows = await db.$queryRaw<{ k: string; id: number; v: boolean | null; name: string | null }[]>`
    SELECT 's' AS k, challenge_id AS id, NULL::boolean AS v, NULL::text AS name FROM solves WHERE team_id = ${teamId}
    UNION ALL SELECT 'h', hint_id, NULL, NULL FROM hint_uses WHERE team_id = ${teamId}
    UNION ALL SELECT 'v', challenge_id, positive, NULL FROM votes WHERE user_id = ${userId}
    UNION ALL SELECT 't', id, NULL, name::text FROM teams WHERE id = ${teamId}`;
  const state: PlayerState = { teamName: null, solved: new Set(), hintsUsed: new Set(), votes: new Map() };
  for (const row of rows) {
    if (row.k === "s") state.solved.add(row.id);
    else if (row.k === "t") state.teamName = row.name;
    else if (row.k === "h") state.hintsUsed.add(row.id);
    else state.votes.set(row.id, row.v === true);
  }
  return state;
}

/**
 * Player states cached per user for up to two minutes. Our own writes (solves, hint uses,
 * votes) drop the affected entries at once, in this process directly and in other server copies
 * by the internal `player_state_changed` event; every other mutation (a staff edit, a team
 * change) drops them all, like cached actors. The TTL only bounds edits made outside the
 * application.
 */
const TTL_MS = 120_000;
const MAX_ENTRIES = 50_000;
/** Entries expire at spread-out times, so a crowd cached together does not reload together. */
const expiry = () => Date.now() + TTL_MS * (0.8 + Math.random() * 0.4);
const CHANGED_EVENT = "player_state_changed";

interface Entry {
  teamId: number | null;
  expires: number;
  state: PlayerState;
}

class PlayerStateCache {
  private readonly entries = new Map<number, Entry>();
  /** Bumped when everything is dropped; a team's or a user's own changes bump their version only. */
  private generation = 0;
  private readonly teamVersions = new Map<number, number>();
  private readonly userVersions = new Map<number, number>();

  constructor(private readonly db: Db) {}

  async get(userId: number, teamId: number | null): Promise<PlayerState> {
    const entry = this.entries.get(userId);
    if (entry && entry.teamId === teamId && Date.now() < entry.expires) return entry.state;
    const before = this.stamp(userId, teamId);
    const state = await loadPlayerState(this.db, userId, teamId);
    // A load that raced with a change of its team or user may predate it: use it for this
    // request, never cache it. Other teams' solves meanwhile do not matter.
    if (before === this.stamp(userId, teamId)) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(userId, { teamId, expires: expiry(), state });
    }
    return state;
  }

  invalidate(change: { teamId?: number; userId?: number; all?: boolean }): void {
    if (change.all) {
      this.generation += 1;
      this.entries.clear();
      this.teamVersions.clear();
      this.userVersions.clear();
      return;
    }
    if (change.userId !== undefined) {
      this.userVersions.set(change.userId, (this.userVersions.get(change.userId) ?? 0) + 1);
      this.entries.delete(change.userId);
    }
    if (change.teamId !== undefined) {
      this.teamVersions.set(change.teamId, (this.teamVersions.get(change.teamId) ?? 0) + 1);
      for (const [userId, entry] of this.entries) if (entry.teamId === change.teamId) this.entries.delete(userId);
    }
  }

  private stamp(userId: number, teamId: number | null): string {
    return `${this.generation}:${teamId === null ? "-" : (this.teamVersions.get(teamId) ?? 0)}:${this.userVersions.get(userId) ?? 0}`;
  }
}

const caches = new WeakMap<Db, PlayerStateCache>();

function cacheFor(ctx: Pick<Context, "db" | "events">): PlayerStateCache {
  let cache = caches.get(ctx.db);
  if (!cache) {
    const created = new PlayerStateCache(ctx.db);
    cache = created;
    caches.set(ctx.db, created);
    ctx.events.subscribe((event) => {
      if (isResync(event)) created.invalidate({ all: true });
      else if (event.kind === "internal" && event.name === CHANGED_EVENT) created.invalidate((event.data ?? {}) as { teamId?: number; userId?: number; all?: boolean });
    });
  }
  return cache;
}

export function getPlayerState(ctx: Pick<Context, "db" | "events">, userId: number, teamId: number | null): Promise<PlayerState> {
  return cacheFor(ctx).get(userId, teamId);
}

/** After a solve or hint use (a team) or a vote (a user): every copy forgets the old state. */
export async function invalidatePlayerState(ctx: Pick<Context, "db" | "events">, change: { teamId?: number; userId?: number; all?: boolean }): Promise<void> {
  cacheFor(ctx).invalidate(change);
  // The maintained own-profile and own-team views hang on the same changes (see own-views.ts).
  invalidateOwnViews(ctx, change);
  await ctx.events.publish({ kind: "internal", name: CHANGED_EVENT, data: change });
}

/** After any mutation that is not the game's own: forget every cached player state. */
export function forgetPlayerStates(services: Pick<Context, "db" | "events">): Promise<void> {
  return invalidatePlayerState(services, { all: true });
}
