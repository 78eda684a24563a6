import type { Db, Prisma } from "@flagship/db";
import { entitySlug } from "@flagship/shared";
import type { Context } from "../context.ts";
import { EVENT_CODES, isResync } from "../events/publisher.ts";

/**
 * Every category and challenge with its tags, hints and files, read once and shared by all
 * requests of this process. Listing categories and submitting flags then cost a fixed number of
 * small per-team queries whatever the number of challenges.
 *
 * Writes in this process drop the cache at once; writes on other server copies arrive as the
 * internal `challenges_changed` event; solves patch it in place (`challenge_solved`, no reload).
 * The TTL only bounds edits made outside the application; an id missing from the cache forces a
 * fresh read (at most one a second), so a challenge added behind our back is still found.
 */
const TTL_MS = 30_000;
const MISS_RELOAD_MS = 1000;
const CHANGED_EVENT = "challenges_changed";
const SOLVED_EVENT = "challenge_solved";

export const catalogChallengeSelect = {
  id: true,
  categoryId: true,
  name: true,
  description: true,
  challengeType: true,
  challengeMetadata: true,
  flagType: true,
  flagMetadata: true,
  author: true,
  score: true,
  currentScore: true,
  pointsType: true,
  unlockRequirements: true,
  hidden: true,
  maintenance: true,
  tiebreaker: true,
  postScoreExplanation: true,
  attemptLimit: true,
  source: true,
  scheduledAt: true,
  nextChallengeId: true,
  solveCount: true,
  votesPositive: true,
  votesNegative: true,
  firstBloodTeam: { select: { name: true } },
  tags: { select: { type: true, text: true }, orderBy: { id: "asc" } },
  hints: { select: { id: true, name: true, penalty: true, text: true, requirements: true }, orderBy: { id: "asc" } },
  files: { select: { id: true, name: true, url: true, size: true }, orderBy: { id: "asc" } },
} satisfies Prisma.ChallengeSelect;

export const catalogCategorySelect = {
  id: true,
  name: true,
  displayOrder: true,
  containedType: true,
  description: true,
  metadata: true,
} satisfies Prisma.CategorySelect;

export type JsonObject = Record<string, unknown>;

export interface CatalogHint {
  id: number;
  challengeId: number;
  name: string;
  penalty: number;
  text: string;
  /** Hints of the challenge the team must have used first. */
  requirements: number[];
}

export interface CatalogChallenge {
  id: number;
  categoryId: number;
  slug: string;
  name: string;
  description: string;
  challengeType: string;
  challengeMetadata: JsonObject;
  flagType: string;
  flagMetadata: JsonObject;
  author: string;
  score: number;
  currentScore: number;
  pointsType: string;
  unlockRequirements: string;
  hidden: boolean;
  maintenance: boolean;
  tiebreaker: boolean;
  postScoreExplanation: string;
  attemptLimit: number | null;
  /** The repository a challenge sync made it from; staff only. */
  source: string;
  /** When it is released to players (ISO-8601), or null; staff only. */
  scheduledAt: string | null;
  /**
   * Hidden from players when this catalog was read: hidden, or scheduled for later. A catalog
   * expires at the next scheduled release (see CatalogCache), so this is never stale.
   */
  withheld: boolean;
  /** The challenge suggested after a solve, or null. */
  nextChallengeId: number | null;
  solveCount: number;
  votesPositive: number;
  votesNegative: number;
  firstBlood: string | null;
  tags: { type: string; text: string }[];
  hints: CatalogHint[];
  files: { id: number; name: string; url: string; size: number }[];
}

export interface CatalogCategory {
  id: number;
  slug: string;
  name: string;
  displayOrder: number;
  containedType: string;
  description: string;
  metadata: JsonObject;
  challenges: CatalogChallenge[];
}

export interface Catalog {
  categories: CatalogCategory[];
  challenges: Map<number, CatalogChallenge>;
  hints: Map<number, CatalogHint>;
  /** The earliest scheduled release still to come when this catalog was read (ms since the epoch), or null. */
  nextRelease: number | null;
}

function asObject(value: Prisma.JsonValue): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

/**
 * Reads the catalog. Challenges and categories whose rows did not change keep their previous
 * objects, so everything derived from them per object (the listing's pre-serialised fragments)
 * survives a reload.
 */
async function loadCatalog(db: Db, previous: Catalog | null): Promise<Catalog> {
  const [categories, challenges] = await Promise.all([
    db.category.findMany({ select: catalogCategorySelect, orderBy: [{ displayOrder: "asc" }, { id: "asc" }] }),
    db.challenge.findMany({ select: catalogChallengeSelect, orderBy: [{ score: "asc" }, { id: "asc" }] }),
  ]);
  const byCategory = new Map<number, CatalogChallenge[]>();
  const challengeMap = new Map<number, CatalogChallenge>();
  const hintMap = new Map<number, CatalogHint>();
  const reuse = new Map<number, { signature: string; challenge: CatalogChallenge }>();
  const now = Date.now();
  let nextRelease: number | null = null;
  for (const old of previous?.challenges.values() ?? []) reuse.set(old.id, { signature: signatures.get(old) ?? "", challenge: old });
  for (const row of challenges) {
    const release = row.scheduledAt?.getTime() ?? null;
    const scheduled = release !== null && release > now;
    if (scheduled && (nextRelease === null || release < nextRelease)) nextRelease = release;
    const withheld = row.hidden || scheduled;
    // Whether it is withheld is part of what the object says: it changes at the release, the row does not.
    const signature = JSON.stringify({ row, withheld }, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    const kept = reuse.get(row.id);
    const challengeMetadata = asObject(row.challengeMetadata);
    const challenge: CatalogChallenge = kept && kept.signature === signature ? kept.challenge : {
      id: row.id,
      categoryId: row.categoryId,
      slug: entitySlug({ id: row.id, name: row.name, metadataSlug: challengeMetadata.challenge_slug }),
      name: row.name,
      description: row.description,
      challengeType: row.challengeType,
      challengeMetadata,
      flagType: row.flagType,
      flagMetadata: asObject(row.flagMetadata),
      author: row.author,
      score: row.score,
      currentScore: row.currentScore,
      pointsType: row.pointsType,
      unlockRequirements: row.unlockRequirements,
      hidden: row.hidden,
      maintenance: row.maintenance,
      tiebreaker: row.tiebreaker,
      postScoreExplanation: row.postScoreExplanation,
      attemptLimit: row.attemptLimit,
      source: row.source,
      scheduledAt: row.scheduledAt?.toISOString() ?? null,
      withheld,
      nextChallengeId: row.nextChallengeId,
      solveCount: row.solveCount,
      votesPositive: row.votesPositive,
      votesNegative: row.votesNegative,
      firstBlood: row.firstBloodTeam?.name ?? null,
      tags: row.tags,
      hints: row.hints.map((h) => ({ ...h, challengeId: row.id })),
      files: row.files.map((f) => ({ ...f, size: Number(f.size) })),
    };
    signatures.set(challenge, signature);
    for (const hint of challenge.hints) hintMap.set(hint.id, hint);
    challengeMap.set(challenge.id, challenge);
    let list = byCategory.get(row.categoryId);
    if (!list) byCategory.set(row.categoryId, (list = []));
    list.push(challenge);
  }
  const previousCategories = new Map((previous?.categories ?? []).map((c) => [c.id, c]));
  return {
    categories: categories.map((row) => {
      const metadata = asObject(row.metadata);
      const list = byCategory.get(row.id) ?? [];
      const old = previousCategories.get(row.id);
      // Same row and the very same challenge objects: keep the category object too.
      if (
        old &&
        old.name === row.name &&
        old.displayOrder === row.displayOrder &&
        old.containedType === row.containedType &&
        old.description === row.description &&
        JSON.stringify(old.metadata) === JSON.stringify(metadata) &&
        old.challenges.length === list.length &&
        old.challenges.every((c, i) => c === list[i])
      ) {
        return old;
      }
      return {
        id: row.id,
        slug: entitySlug({ id: row.id, name: row.name, metadataSlug: metadata.category_slug }),
        name: row.name,
        displayOrder: row.displayOrder,
        containedType: row.containedType,
        description: row.description,
        metadata,
        challenges: list,
      };
    }),
    challenges: challengeMap,
    hints: hintMap,
    nextRelease,
  };
}

const signatures = new WeakMap<CatalogChallenge, string>();

/**
 * What a correct flag changes in the catalog: the challenge's solve count, its value (a decay
 * challenge's falls) and, for the first solve, first blood. Committed before it is sent.
 */
export interface SolvePatch {
  id: number;
  solveCount: number;
  currentScore: number;
  /** The team that took first blood with this solve, or null when it was not first. */
  firstBlood: string | null;
}

/**
 * The catalog with one solve applied: a new object for the solved challenge (so its listing
 * fragments are written again) and for its category; every other object is kept. Patches may
 * arrive out of commit order from other copies: a solve count only goes up, so an older patch is
 * ignored, and first blood is only ever set where none is known. Applying a patch twice changes
 * nothing.
 */
export function applySolvePatch(catalog: Catalog, patch: SolvePatch): Catalog {
  const old = catalog.challenges.get(patch.id);
  if (!old) return catalog;
  const newer = patch.solveCount > old.solveCount;
  const blood = old.firstBlood === null && patch.firstBlood !== null;
  if (!newer && !blood) return catalog;
  const challenge: CatalogChallenge = {
    ...old,
    ...(newer && { solveCount: patch.solveCount, currentScore: patch.currentScore }),
    ...(blood && { firstBlood: patch.firstBlood }),
  };
  // No row signature: the next full read builds this challenge's object again.
  signatures.set(challenge, "");
  const challenges = new Map(catalog.challenges);
  challenges.set(challenge.id, challenge);
  return {
    categories: catalog.categories.map((category) =>
      category.id === challenge.categoryId ? { ...category, challenges: category.challenges.map((c) => (c.id === challenge.id ? challenge : c)) } : category,
    ),
    challenges,
    hints: catalog.hints,
    nextRelease: catalog.nextRelease,
  };
}

class CatalogCache {
  private value: Catalog | null = null;
  /** The latest catalog read, kept across invalidations so unchanged objects can be reused. */
  private last: Catalog | null = null;
  private at = 0;
  private loading: Promise<Catalog> | null = null;
  /** Bumped by every invalidation, so a load that started before a write is never cached. */
  private generation = 0;
  /**
   * Solves seen since the last invalidation, applied to every load as it lands: a load that began
   * before a solve committed must not bring its old counts back. At most one per challenge.
   */
  private patches = new Map<number, SolvePatch>();

  /** Fires at the cached catalog's next scheduled release: the catalog expires, the release is announced. */
  private releaseTimer: NodeJS.Timeout | null = null;
  /**
   * Releases this copy knows to be announced (by it or another copy), as "id scheduledAt": a
   * catalog read finds a released challenge, has it announced if no copy did, and asks no more.
   */
  private settled = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly onRelease: (ids: number[] | null) => Promise<void>,
  ) {}

  get(): Promise<Catalog> {
    const age = Date.now() - this.at;
    // A catalog read before a scheduled release is not served after it.
    const released = this.value?.nextRelease != null && Date.now() >= this.value.nextRelease;
    if (this.value && age < TTL_MS && !released) {
      // Past half its life, refresh in the background: under steady traffic no request waits on
      // the periodic reload, and nothing served is ever older than the TTL.
      if (age >= TTL_MS / 2 && !this.loading) this.load().catch(() => undefined);
      return Promise.resolve(this.value);
    }
    return this.loading ?? this.load();
  }

  private load(): Promise<Catalog> {
    const generation = this.generation;
    const loading = loadCatalog(this.db, this.value ?? this.last).then(
      (catalog) => {
        if (generation === this.generation) {
          for (const patch of this.patches.values()) catalog = applySolvePatch(catalog, patch);
          this.value = catalog;
          this.at = Date.now();
          this.armRelease(catalog.nextRelease);
        }
        this.last = catalog;
        this.announcePassed(catalog);
        if (this.loading === loading) this.loading = null;
        return catalog;
      },
      (error: unknown) => {
        if (this.loading === loading) this.loading = null;
        throw error;
      },
    );
    this.loading = loading;
    return loading;
  }

  /**
   * Every copy reads the schedule with its catalog, so every copy drops its own catalog at the
   * moment a challenge is released, with no staff action and no message between copies. A timer
   * waits at most ~24 days at once (setTimeout's limit), then waits on for the rest.
   */
  private armRelease(at: number | null): void {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    if (at === null) return;
    const delay = Math.min(Math.max(at - Date.now(), 0), 2 ** 31 - 1);
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      // Early by a rounding, or a far release reached in steps: wait on.
      if (Date.now() < at) return this.armRelease(at);
      this.invalidate();
      this.onRelease(null).catch(() => undefined);
    }, delay);
    this.releaseTimer.unref();
  }

  /**
   * A release that passed while no copy had a catalog to time it (all restarting, or every cache
   * dropped) is announced by the first catalog read after it: the claim is the same atomic update
   * as the timer's, so it is still announced once across copies.
   */
  private announcePassed(catalog: Catalog): void {
    const passed = new Map<string, number>();
    for (const challenge of catalog.challenges.values()) {
      if (challenge.scheduledAt !== null && !challenge.withheld) passed.set(`${challenge.id} ${challenge.scheduledAt}`, challenge.id);
    }
    // Forget releases no longer in the catalog (rescheduled or deleted), so the set stays small.
    for (const key of this.settled) if (!passed.has(key)) this.settled.delete(key);
    const pending = [...passed].filter(([key]) => !this.settled.has(key));
    if (pending.length === 0) return;
    this.onRelease(pending.map(([, id]) => id)).then(
      () => {
        for (const [key] of pending) this.settled.add(key);
      },
      () => undefined,
    );
  }

  private lastMissReload = 0;
  private missReload: Promise<Catalog> | null = null;

  /**
   * A cache miss on an id (a challenge created behind our back, or on another copy whose event has
   * not arrived yet): a fresh read, at most one a second. A miss within a second of the last read
   * waits for the next one, joined by every miss meanwhile. Readers of known ids go on being served
   * the catalog they have while it runs.
   */
  reloadForMiss(): Promise<Catalog> {
    if (this.missReload) return this.missReload;
    const wait = Math.max(0, this.lastMissReload + MISS_RELOAD_MS - Date.now());
    const reload: Promise<Catalog> = new Promise<void>((resolve) => setTimeout(resolve, wait))
      .then(() => {
        this.lastMissReload = Date.now();
        return this.load();
      })
      .finally(() => {
        if (this.missReload === reload) this.missReload = null;
      });
    this.missReload = reload;
    return reload;
  }

  /** A solve: the cached catalog moves with it at once, with no reload. */
  patch(patch: SolvePatch): void {
    const known = this.patches.get(patch.id);
    this.patches.set(patch.id, {
      id: patch.id,
      solveCount: Math.max(patch.solveCount, known?.solveCount ?? 0),
      currentScore: known && known.solveCount > patch.solveCount ? known.currentScore : patch.currentScore,
      firstBlood: known?.firstBlood ?? patch.firstBlood,
    });
    if (this.value) this.value = applySolvePatch(this.value, patch);
  }

  invalidate(): void {
    this.generation += 1;
    this.patches.clear();
    this.value = null;
    // A read after a write must not join a load that began before it.
    this.loading = null;
  }
}

const caches = new WeakMap<Db, CatalogCache>();

function cacheFor(ctx: Pick<Context, "db" | "events">): CatalogCache {
  let cache = caches.get(ctx.db);
  if (!cache) {
    const created = new CatalogCache(ctx.db, (ids) => announceReleases(ctx, ids));
    cache = created;
    caches.set(ctx.db, created);
    ctx.events.subscribe((event) => {
      if ((event.kind === "internal" && event.name === CHANGED_EVENT) || isResync(event)) created.invalidate();
      else if (event.kind === "internal" && event.name === SOLVED_EVENT) created.patch(event.data as unknown as SolvePatch);
    });
  }
  return cache;
}

export function getCatalog(ctx: Pick<Context, "db" | "events">): Promise<Catalog> {
  return cacheFor(ctx).get();
}

/** The challenge with this id, reading afresh (rate-limited) when the cache does not know it. */
export async function findChallenge(ctx: Pick<Context, "db" | "events">, id: number): Promise<{ catalog: Catalog; challenge: CatalogChallenge | undefined }> {
  let catalog = await getCatalog(ctx);
  let challenge = catalog.challenges.get(id);
  if (!challenge) {
    catalog = await cacheFor(ctx).reloadForMiss();
    challenge = catalog.challenges.get(id);
  }
  return { catalog, challenge };
}

/** The hint with this id, likewise. */
export async function findHint(ctx: Pick<Context, "db" | "events">, id: number): Promise<{ catalog: Catalog; hint: CatalogHint | undefined }> {
  let catalog = await getCatalog(ctx);
  let hint = catalog.hints.get(id);
  if (!hint) {
    catalog = await cacheFor(ctx).reloadForMiss();
    hint = catalog.hints.get(id);
  }
  return { catalog, hint };
}

/**
 * A committed solve moves every copy's cached catalog (solve count, value, first blood) without
 * a reload: this process's at once, the others' by event. Readers never wait for a full read
 * because someone solved something.
 */
export async function patchCatalogForSolve(ctx: Pick<Context, "db" | "events">, patch: SolvePatch): Promise<void> {
  cacheFor(ctx).patch(patch);
  await ctx.events.publish({ kind: "internal", name: SOLVED_EVENT, data: { ...patch } });
}

/**
 * Released challenges are news for players, as a challenge staff unhide is: event 6 to everyone,
 * once. Every copy's timer fires (and every copy's next catalog read finds the release passed);
 * the first to move the row's updated_at past the release moment announces it, the others find it
 * moved and stay quiet. A release not yet announced is one whose row was last written before it.
 * `ids`: only these challenges (a catalog read's), or null for every release passed by now.
 */
async function announceReleases(ctx: Pick<Context, "db" | "events">, ids: number[] | null): Promise<void> {
  const now = new Date();
  const claimed =
    ids === null
      ? await ctx.db.$queryRaw<{ id: number }[]>`
    UPDATE challenges SET updated_at = now()
    WHERE scheduled_at <= ${now} AND NOT hidden AND updated_at < scheduled_at
    RETURNING id`
      : await ctx.db.$queryRaw<{ id: number }[]>`
    UPDATE challenges SET updated_at = now()
    WHERE id = ANY(${ids}::int[]) AND scheduled_at <= ${now} AND NOT hidden AND updated_at < scheduled_at
    RETURNING id`;
  for (const { id } of claimed) {
    await ctx.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: EVENT_CODES.challengeUpdate, challenge_id: id } });
  }
}

/**
 * Reads the catalog when a copy starts, before any request asks for it: its timer is set for the
 * next release, and a release that passed while the copy was down is announced if no copy did.
 */
export async function warmCatalog(ctx: Pick<Context, "db" | "events">): Promise<void> {
  await getCatalog(ctx);
}

/** Drops every copy's cached catalog: this process's at once, the others' by event. */
export async function invalidateCatalog(ctx: Pick<Context, "db" | "events">): Promise<void> {
  cacheFor(ctx).invalidate();
  await ctx.events.publish({ kind: "internal", name: CHANGED_EVENT });
}
