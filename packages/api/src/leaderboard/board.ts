import type { Db } from "@flagship/db";
import type { Context } from "../context.ts";
import { type AppEvent, EVENT_CODES, type EventPublisher, RESYNC_EVENT } from "../events/publisher.ts";
import { type FreezeSnapshot, loadFreezeSnapshot } from "./freeze.ts";
import type { Standing, Standings } from "./standings.ts";

export type BoardKind = "user" | "team";

export interface BoardEntry {
  id: number;
  name: string;
  leaderboard_points: number;
  /** Last scoring solve of a tiebreaker challenge, ISO; ties go to whoever got there first. */
  last_score: string | null;
  /** The leaderboard group (division) of the team, or of the user's team; null without one. */
  group_id: number | null;
  group_name: string | null;
}

const boardsByGroup = new WeakMap<BoardEntry[], Map<number, BoardEntry[]>>();

/** One group's part of a board, in board order, kept as long as the board itself. */
export function groupBoard(entries: BoardEntry[], group: number | undefined): BoardEntry[] {
  if (group === undefined) return entries;
  let byGroup = boardsByGroup.get(entries);
  if (!byGroup) boardsByGroup.set(entries, (byGroup = new Map()));
  let found = byGroup.get(group);
  if (!found) {
    found = entries.filter((e) => e.group_id === group);
    if (byGroup.size < 256) byGroup.set(group, found);
  }
  return found;
}

/**
 * Signals after which the boards are built again from scratch: members moving in or out, new or
 * changed accounts and teams (leaderboard_changed), visibility and config changes, and a resync
 * after a Redis outage. Solves and re-scorings only patch the boards (below).
 */
const BOARD_SIGNALS = new Set(["scores_changed", "leaderboard_changed", "membership_changed", "config_changed", RESYNC_EVENT]);

/** Whose standings a solve (its team and user) or a re-scoring (every solver of a challenge) moved. */
interface Change {
  ids: Set<number>;
  challenges: Set<number>;
}

/** A board a patch was made from, so a page whose entries did not move can be kept (see previousBoard). */
const derived = new WeakMap<BoardEntry[], BoardEntry[]>();

/** The board version a patched board was made from (only the one before it). */
export function previousBoard(entries: BoardEntry[]): BoardEntry[] | undefined {
  return derived.get(entries);
}

/**
 * A board frozen at `frozenAt` holds only scores up to then; a solve can still land on it while
 * transactions that began before the freeze commit, so frozen boards are dropped by solves only
 * this long after the freeze.
 */
const FREEZE_SETTLE_MS = 60_000;

/** A cached board: the promise readers share, and its value once it has one. */
interface Slot {
  promise: Promise<BoardEntry[]>;
  value: BoardEntry[] | null;
}

/** Per board kind, the background check of moved totals (see BoardCache). */
interface Checks {
  ids: Set<number>;
  challenges: Set<number>;
  running: Promise<void> | null;
  /** Per id, the number of the last event that moved it. */
  lastEvent: Map<number, number>;
}

const KINDS: readonly BoardKind[] = ["team", "user"];
/** Staff edits of challenges (their values, first bloods): the freeze snapshots hold those too. */
const CHALLENGES_CHANGED = "challenges_changed";
const liveKey = (kind: BoardKind) => `${kind}:live`;

/**
 * The ordered boards, kept in memory and maintained rather than rebuilt: a page costs O(page)
 * however many teams there are, and a page whose entries did not move keeps its serialised form.
 * Every server copy gets every event (its own included) and maintains its own boards:
 *
 * - A solve event carries the totals its transaction left for everyone it moved (standings.ts).
 *   They are applied at once, synchronously, as the event arrives: the next read already shows
 *   the solve, no reader waits, and no query is made on the read path.
 * - Events from different copies may arrive out of commit order, so each one is followed by a
 *   background check that reads the moved totals again (one query, joined by the events that
 *   arrive meanwhile); a total another event moved since the check began is left to that event's
 *   own check. The boards thus settle on the committed totals whatever the order of arrival.
 * - A solve event without standings (from an older copy, or tests) patches the board by reading
 *   the moved totals; readers wait for that one read (concurrent readers share it).
 * - Membership, visibility, name and config changes drop the boards; the next read builds each
 *   board once, concurrent readers sharing that load.
 */
class BoardCache {
  private readonly boards = new Map<string, Slot>();
  /** The freeze snapshots (freeze.ts) by freeze time, which the frozen boards are built from. */
  private readonly snapshots = new Map<number, Promise<FreezeSnapshot>>();
  /** Per board, the read patch that has not started yet, which further changes join. */
  private readonly queued = new Map<string, Change>();
  private readonly checks: Record<BoardKind, Checks> = {
    team: { ids: new Set(), challenges: new Set(), running: null, lastEvent: new Map() },
    user: { ids: new Set(), challenges: new Set(), running: null, lastEvent: new Map() },
  };
  private events = 0;
  private epoch = 0;
  private db: Db | null = null;

  constructor(events: EventPublisher) {
    events.subscribe((event: AppEvent) => {
      if (event.kind === "internal") {
        if (BOARD_SIGNALS.has(event.name)) this.clear();
        else if (event.name === CHALLENGES_CHANGED) this.snapshots.clear();
        return;
      }
      const p = event.payload;
      if (p.event_code === EVENT_CODES.solve) {
        this.dropSettlingFrozen();
        if (event.standings) this.move(event.standings);
        // A solve names its team and user; one that does not is handled the safe way.
        else if (typeof p.team === "number" && typeof p.user === "number") this.patch({ team: [p.team], user: [p.user] }, []);
        else this.clear();
      } else if (p.event_code === EVENT_CODES.scoreUpdate && typeof p.challenge_id === "number") {
        // The solve event before it carried every re-scored total; check them all the same.
        this.dropSettlingFrozen();
        for (const kind of KINDS) this.check(kind, [], [p.challenge_id]);
      } else if (p.event_code === EVENT_CODES.teamJoin) {
        this.clear();
      }
    });
  }

  get(db: Db, kind: BoardKind, frozenAt: Date | null): Promise<BoardEntry[]> {
    this.db = db;
    const key = `${kind}:${frozenAt?.getTime() ?? "live"}`;
    const load = () => (frozenAt ? this.snapshot(db, frozenAt).then((snapshot) => loadFrozenBoard(db, kind, snapshot)) : loadLiveBoard(db, kind));
    return (this.boards.get(key) ?? this.hold(key, load())).promise;
  }

  /** The event as it stood at `at`, read once and shared (freeze.ts); a failed read is forgotten. */
  snapshot(db: Db, at: Date): Promise<FreezeSnapshot> {
    this.db = db;
    const key = at.getTime();
    let snapshot = this.snapshots.get(key);
    if (!snapshot) {
      const loading = loadFreezeSnapshot(db, at);
      snapshot = loading;
      this.snapshots.set(key, loading);
      loading.catch(() => {
        if (this.snapshots.get(key) === loading) this.snapshots.delete(key);
      });
    }
    return snapshot;
  }

  /** Caches a board still to come; a failed load or patch is forgotten, so the next read builds it afresh. */
  private hold(key: string, board: Promise<BoardEntry[]>): Slot {
    const slot: Slot = { promise: board, value: null };
    slot.promise = board.then(
      (entries) => {
        if (this.boards.get(key) === slot) slot.value = entries;
        return entries;
      },
      (error: unknown) => {
        if (this.boards.get(key) === slot) this.boards.delete(key);
        throw error;
      },
    );
    // Readers see a failure through their own await; a patch nobody has read yet must not crash.
    slot.promise.catch(() => {});
    this.boards.set(key, slot);
    return slot;
  }

  private clear(): void {
    this.epoch += 1;
    this.boards.clear();
    this.snapshots.clear();
    this.queued.clear();
  }

  private dropSettlingFrozen(): void {
    for (const key of this.boards.keys()) {
      const at = key.split(":")[1]!;
      if (at !== "live" && Date.now() - Number(at) < FREEZE_SETTLE_MS) this.boards.delete(key);
    }
    for (const at of this.snapshots.keys()) if (Date.now() - at < FREEZE_SETTLE_MS) this.snapshots.delete(at);
  }

  /** Applies a solve's standings to the live boards now, then has them checked. */
  private move(standings: Standings): void {
    const db = this.db;
    const number = ++this.events;
    for (const kind of KINDS) {
      const rows = kind === "team" ? standings.teams : standings.users;
      if (rows.length === 0) continue;
      for (const row of rows) this.checks[kind].lastEvent.set(row.id, number);
      const key = liveKey(kind);
      const slot = this.boards.get(key);
      if (slot && db) {
        if (slot.value) {
          const next = applyStandings(slot.value, rows);
          if (next === "reload") this.hold(key, loadLiveBoard(db, kind));
          else if (next !== slot.value) this.boards.set(key, { promise: Promise.resolve(next), value: next });
        } else {
          // Still loading: the load may predate the solve, so the standings go on top of it.
          this.hold(
            key,
            slot.promise.then((entries) => {
              const next = applyStandings(entries, rows);
              return next === "reload" ? loadLiveBoard(db, kind) : next;
            }),
          );
        }
      }
      this.check(
        kind,
        rows.map((r) => r.id),
        [],
      );
    }
  }

  /** Reads moved totals again in the background (see the class comment). */
  private check(kind: BoardKind, ids: number[], challenges: number[]): void {
    const checks = this.checks[kind];
    if (!this.boards.has(liveKey(kind))) return;
    for (const id of ids) checks.ids.add(id);
    for (const id of challenges) checks.challenges.add(id);
    if (checks.running) return;
    checks.running = this.runChecks(kind).finally(() => {
      checks.running = null;
    });
  }

  /** Resolves once no background check is running (for tests: the boards have settled). */
  async settled(): Promise<void> {
    while (this.checks.team.running || this.checks.user.running) await Promise.all([this.checks.team.running, this.checks.user.running]);
  }

  private async runChecks(kind: BoardKind): Promise<void> {
    const checks = this.checks[kind];
    const key = liveKey(kind);
    while (checks.ids.size > 0 || checks.challenges.size > 0) {
      const ids = [...checks.ids];
      const challenges = [...checks.challenges];
      checks.ids.clear();
      checks.challenges.clear();
      const db = this.db;
      if (!db || !this.boards.has(key)) return;
      const started = this.events;
      const epoch = this.epoch;
      let rows: Standing[];
      try {
        rows = await readStandings(db, kind, ids, challenges);
      } catch {
        // The database is unreachable: the next read builds the board again.
        if (this.epoch === epoch) this.boards.delete(key);
        return;
      }
      if (this.epoch !== epoch) return;
      // A total an event moved after this read began is that event's own check's business.
      const settled = rows.filter((row) => {
        const newer = (checks.lastEvent.get(row.id) ?? 0) > started;
        if (newer) checks.ids.add(row.id);
        return !newer;
      });
      const slot = this.boards.get(key);
      if (!slot) return;
      const entries = slot.value ?? (await slot.promise.catch(() => null));
      if (!entries || this.boards.get(key) !== slot) continue;
      const next = applyStandings(entries, settled);
      if (next === "reload") this.hold(key, loadLiveBoard(db, kind));
      else if (next !== entries) this.boards.set(key, { promise: Promise.resolve(next), value: next });
    }
  }

  /** Patches the live boards by reading the moved totals; readers wait for it (no standings came). */
  private patch(ids: Record<BoardKind, number[]>, challenges: number[]): void {
    const db = this.db;
    if (!db) return;
    for (const kind of KINDS) {
      const key = liveKey(kind);
      const slot = this.boards.get(key);
      if (!slot) continue;
      const waiting = this.queued.get(key);
      if (waiting) {
        for (const id of ids[kind]) waiting.ids.add(id);
        for (const id of challenges) waiting.challenges.add(id);
        continue;
      }
      const own: Change = { ids: new Set(ids[kind]), challenges: new Set(challenges) };
      this.queued.set(key, own);
      const start = () => {
        if (this.queued.get(key) === own) this.queued.delete(key);
      };
      this.hold(
        key,
        slot.promise.then(
          async (entries) => {
            start();
            const next = applyStandings(entries, await readStandings(db, kind, [...own.ids], [...own.challenges]));
            return next === "reload" ? loadLiveBoard(db, kind) : next;
          },
          (error: unknown) => {
            start();
            throw error;
          },
        ),
      );
    }
  }
}

const caches = new WeakMap<EventPublisher, BoardCache>();

export function boardCache(ctx: Pick<Context, "events">): BoardCache {
  let cache = caches.get(ctx.events);
  if (!cache) caches.set(ctx.events, (cache = new BoardCache(ctx.events)));
  return cache;
}

/** Board order: most points first, then the earlier last tiebreaker solve (none last), then id. */
function byStanding(a: BoardEntry, b: BoardEntry): number {
  if (a.leaderboard_points !== b.leaderboard_points) return b.leaderboard_points - a.leaderboard_points;
  if (a.last_score !== b.last_score) {
    if (a.last_score === null) return 1;
    if (b.last_score === null) return -1;
    return a.last_score < b.last_score ? -1 : 1;
  }
  return a.id - b.id;
}

/**
 * The board with new totals for some competitors, re-sorted (an almost sorted array: cheap). The
 * same board comes back when nothing on it changed; "reload" when a listed competitor is missing
 * from it or a listed one should no longer be there (the board is then built from scratch).
 *
 * One pass over the board with the moved competitors in a map: a solve moves two or three, and a
 * map of the whole board per version (one per solve and kind, and again after each check) was a
 * large share of what the boards left behind for the garbage collector.
 */
export function applyStandings(entries: BoardEntry[], rows: readonly Standing[]): BoardEntry[] | "reload" {
  if (rows.length === 0) return entries;
  const moved = new Map<number, Standing>();
  for (const row of rows) moved.set(row.id, row);
  let next: BoardEntry[] | null = null;
  const seen = new Set<number>();
  for (let index = 0; index < entries.length && seen.size < moved.size; index++) {
    const old = entries[index]!;
    const row = moved.get(old.id);
    if (!row) continue;
    seen.add(row.id);
    if (!row.listed) return "reload";
    if (old.leaderboard_points === row.points && old.last_score === row.last) continue;
    next ??= entries.slice();
    next[index] = { ...old, leaderboard_points: row.points, last_score: row.last };
  }
  // Whoever is not on the board: a listed one makes it be built again, an unlisted one is fine.
  if (seen.size < moved.size) for (const row of moved.values()) if (!seen.has(row.id) && row.listed) return "reload";
  if (!next) return entries;
  next.sort(byStanding);
  derived.delete(entries);
  derived.set(next, entries);
  return next;
}

/** The current totals of the given competitors and of every solver of the given challenges. */
async function readStandings(db: Db, kind: BoardKind, ids: number[], challenges: number[]): Promise<Standing[]> {
  type Row = { id: number; leaderboard_points: number; last_score_at: Date | null; listed: boolean };
  const rows =
    kind === "team"
      ? await db.$queryRaw<Row[]>`
          SELECT id, leaderboard_points, last_score_at, is_visible AS listed FROM teams
           WHERE id = ANY(${ids}::int[]) OR id IN (SELECT team_id FROM solves WHERE challenge_id = ANY(${challenges}::int[]))`
      : await db.$queryRaw<Row[]>`
          SELECT id, leaderboard_points, last_score_at, (is_visible AND is_active AND NOT is_staff) AS listed FROM users
           WHERE id = ANY(${ids}::int[]) OR id IN (SELECT user_id FROM solves WHERE challenge_id = ANY(${challenges}::int[]))`;
  return rows.map((r) => ({ id: r.id, points: r.leaderboard_points, last: r.last_score_at?.toISOString() ?? null, listed: r.listed }));
}

/** Every visible competitor, those without points last. */
async function loadLiveBoard(db: Db, kind: BoardKind): Promise<BoardEntry[]> {
  const order = [{ leaderboardPoints: "desc" as const }, { lastScoreAt: { sort: "asc" as const, nulls: "last" as const } }, { id: "asc" as const }];
  if (kind === "team") {
    const teams = await db.team.findMany({
      where: { isVisible: true },
      select: { id: true, name: true, leaderboardPoints: true, lastScoreAt: true, leaderboardGroup: { select: { id: true, name: true } } },
      orderBy: order,
    });
    return teams.map((t) => ({
      id: t.id,
      name: t.name,
      leaderboard_points: t.leaderboardPoints,
      last_score: t.lastScoreAt?.toISOString() ?? null,
      group_id: t.leaderboardGroup?.id ?? null,
      group_name: t.leaderboardGroup?.name ?? null,
    }));
  }
  const users = await db.user.findMany({
    // Staff accounts never appear on a public board.
    where: { isVisible: true, isActive: true, isStaff: false },
    select: { id: true, username: true, leaderboardPoints: true, lastScoreAt: true, team: { select: { leaderboardGroup: { select: { id: true, name: true } } } } },
    orderBy: order,
  });
  return users.map((u) => ({
    id: u.id,
    name: u.username,
    leaderboard_points: u.leaderboardPoints,
    last_score: u.lastScoreAt?.toISOString() ?? null,
    group_id: u.team?.leaderboardGroup?.id ?? null,
    group_name: u.team?.leaderboardGroup?.name ?? null,
  }));
}

/** The board as it stood at the freeze: today's competitors with their totals from the snapshot. */
async function loadFrozenBoard(db: Db, kind: BoardKind, snapshot: FreezeSnapshot): Promise<BoardEntry[]> {
  const totals = kind === "team" ? snapshot.teams : snapshot.users;
  const entries = await loadLiveBoard(db, kind);
  return entries
    .map((e) => {
      const frozen = totals.get(e.id);
      return { ...e, leaderboard_points: frozen?.leaderboardPoints ?? 0, last_score: frozen?.last ?? null };
    })
    .sort(byStanding);
}
