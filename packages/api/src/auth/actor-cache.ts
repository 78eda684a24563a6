import type { Db } from "@flagship/db";
import type { Actor, Services } from "../context.ts";
import { isResync } from "../events/publisher.ts";
import { impersonationStands, resolveToken } from "./resolve-actor.ts";
import { AppError } from "@flagship/shared";

/**
 * Token lookups cached for up to two minutes. Every authenticated request needs its actor, and
 * at event scale the lookup is most of a cheap read's cost.
 *
 * Freshness: anything that changes an actor (logout, a team join, a staff edit, 2FA...) is a
 * mutation, and every mutation other than the game's own (which never touch users or tokens) drops
 * the whole cache before its reply is sent, so the caller's next request sees the change. Other
 * server copies drop theirs on the internal `actors_changed` event. The TTL only bounds edits made
 * outside the application (directly in the database); it is long enough that a player reading a
 * page every minute or so, as in a large event, is not sent back to the database each time.
 */
const TTL_MS = 120_000;
const MAX_ENTRIES = 100_000;
/** Entries expire at spread-out times, so a crowd cached together does not reload together. */
const expiry = () => Date.now() + TTL_MS * (0.8 + Math.random() * 0.4);
const CHANGED_EVENT = "actors_changed";

/**
 * Mutations that never change a cached user or token, so they leave the cache alone: the game's
 * own, and logging in, which only adds a new token (and notes the address). At the start of an
 * event every player logs in within minutes; were each login to drop every cache on every copy,
 * the other requests would all go back to the database at once.
 */
const NEUTRAL_REST = new Set([
  "/api/v2/challenges/submit_flag",
  "/api/v2/challenges/check_flag",
  "/api/v2/challenges/vote",
  "/api/v2/challenges/feedback",
  "/api/v2/hints/use",
  "/api/v2/auth/login",
  "/api/v2/auth/login_2fa",
]);
const NEUTRAL_TRPC = new Set(["challenges.submitFlag", "challenges.checkFlag", "challenges.vote", "challenges.feedback", "hints.use", "auth.login", "auth.login2fa"]);

/** GETs that change actors all the same: desudo deletes the impersonation token. */
const CHANGING_GETS = new Set(["/api/v2/auth/desudo"]);

function startsChangingGet(url: string): boolean {
  for (const path of CHANGING_GETS) if (url.startsWith(path)) return true;
  return false;
}

/** Whether a request may change actors: any non-GET request except the game's own mutations and logins. */
export function mayChangeActors(method: string, url: string): boolean {
  const read = method === "GET" || method === "HEAD" || method === "OPTIONS";
  // Every answer asks; a read of any other path is answered without cutting the URL up.
  if (read && !startsChangingGet(url)) return false;
  const path = (url.split("?")[0] ?? "").replace(/\/+$/, "");
  if (read) return CHANGING_GETS.has(path);
  if (NEUTRAL_REST.has(path)) return false;
  if (path.startsWith("/trpc/")) {
    const procedures = decodeURIComponent(path.slice("/trpc/".length)).split(",");
    return !procedures.every((p) => NEUTRAL_TRPC.has(p));
  }
  return true;
}

interface Entry {
  actor: Actor | null;
  expires: number;
}

class ActorCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(private readonly db: Db) {}

  async get(key: string): Promise<Actor | null> {
    const entry = this.entries.get(key);
    if (entry && Date.now() < entry.expires) return entry.actor;
    const generation = this.generation;
    // Unknown keys throw (authentication_failed) and are never cached.
    const { actor, expiresAt } = await resolveToken(this.db, key);
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      // A token with an end time is never served from the cache after it.
      this.entries.set(key, { actor, expires: Math.min(expiry(), expiresAt ?? Infinity) });
    }
    return actor;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

const caches = new WeakMap<Db, ActorCache>();

function cacheFor(services: Pick<Services, "db" | "events">): ActorCache {
  let cache = caches.get(services.db);
  if (!cache) {
    const created = new ActorCache(services.db);
    cache = created;
    caches.set(services.db, created);
    services.events.subscribe((event) => {
      if ((event.kind === "internal" && event.name === CHANGED_EVENT) || isResync(event)) created.clear();
    });
  }
  return cache;
}

/** The actor for a key, from the cache when it is fresh. */
export async function resolveActorCached(services: Pick<Services, "db" | "events" | "config">, key: string | null): Promise<Actor | null> {
  if (key === null) return null;
  const actor = await cacheFor(services).get(key);
  // Checked on every request, not cached: the setting can be turned on while the actor is cached.
  if (actor && !(await impersonationStands(services.config, actor))) throw new AppError("authentication_failed");
  return actor;
}

/** Drops every cached actor here at once and, by event, in the other server copies. */
export async function forgetActors(services: Pick<Services, "db" | "events">): Promise<void> {
  cacheFor(services).clear();
  await services.events.publish({ kind: "internal", name: CHANGED_EVENT });
}
