import type { Db } from "@flagship/db";
import type { Context } from "../context.ts";
import { type AppEvent, type EventPublisher, RESYNC_EVENT } from "../events/publisher.ts";

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
 * Events after which the standings may have moved: solves, re-scores, members moving in or out,
 * and new or changed accounts and teams (signalled as leaderboard_changed).
 */
const SCORE_EVENTS = new Set([1, 4, 7]);
const BOARD_SIGNALS = new Set(["scores_changed", "leaderboard_changed", "membership_changed", "config_changed", RESYNC_EVENT]);

/**
 * The ordered boards, built once and reused until a solve, a score update or a visibility change
 * says otherwise, so a page costs O(page) however many teams there are. One cache per publisher:
 * every server copy gets every event and drops its copy.
 */
class BoardCache {
  private readonly boards = new Map<string, Promise<BoardEntry[]>>();

  constructor(events: EventPublisher) {
    events.subscribe((event: AppEvent) => {
      if (event.kind === "socket" ? SCORE_EVENTS.has(event.payload.event_code) : BOARD_SIGNALS.has(event.name)) {
        this.boards.clear();
      }
    });
  }

  get(db: Db, kind: BoardKind, frozenAt: Date | null): Promise<BoardEntry[]> {
    const key = `${kind}:${frozenAt?.getTime() ?? "live"}`;
    let board = this.boards.get(key);
    if (!board) {
      board = (frozenAt ? loadFrozenBoard(db, kind, frozenAt) : loadLiveBoard(db, kind)).catch((error: unknown) => {
        this.boards.delete(key);
        throw error;
      });
      this.boards.set(key, board);
    }
    return board;
  }
}

const caches = new WeakMap<EventPublisher, BoardCache>();

export function boardCache(ctx: Pick<Context, "events">): BoardCache {
  let cache = caches.get(ctx.events);
  if (!cache) caches.set(ctx.events, (cache = new BoardCache(ctx.events)));
  return cache;
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

/**
 * The board as it stood at `frozenAt`: every leaderboard score change up to then (decay
 * adjustments included), with the tiebreak time from tiebreaker solves up to then.
 */
type Row = { id: number; name: string; points: bigint | null; last_score: Date | null; group_id: number | null; group_name: string | null };

async function loadFrozenBoard(db: Db, kind: BoardKind, frozenAt: Date): Promise<BoardEntry[]> {
  const rows =
    kind === "team"
      ? await db.$queryRaw<Row[]>`
          SELECT t.id, t.name::text AS name, g.id AS group_id, g.name::text AS group_name,
            (SELECT COALESCE(SUM(r.points), 0) FROM score_records r WHERE r.team_id = t.id AND r.leaderboard AND r.timestamp <= ${frozenAt}) AS points,
            (SELECT MAX(s.timestamp) FROM solves s WHERE s.team_id = t.id AND s.scoring AND s.tiebreaker AND s.timestamp <= ${frozenAt}) AS last_score
          FROM teams t LEFT JOIN leaderboard_groups g ON g.id = t.leaderboard_group_id WHERE t.is_visible`
      : await db.$queryRaw<Row[]>`
          SELECT u.id, u.username::text AS name, g.id AS group_id, g.name::text AS group_name,
            (SELECT COALESCE(SUM(r.points), 0) FROM score_records r WHERE r.user_id = u.id AND r.leaderboard AND r.timestamp <= ${frozenAt}) AS points,
            (SELECT MAX(s.timestamp) FROM solves s WHERE s.user_id = u.id AND s.scoring AND s.tiebreaker AND s.timestamp <= ${frozenAt}) AS last_score
          FROM users u LEFT JOIN teams ut ON ut.id = u.team_id LEFT JOIN leaderboard_groups g ON g.id = ut.leaderboard_group_id
          WHERE u.is_visible AND u.is_active AND NOT u.is_staff`;
  return rows
    .map((r) => ({
      id: r.id,
      name: r.name,
      leaderboard_points: Number(r.points ?? 0),
      last_score: r.last_score?.toISOString() ?? null,
      group_id: r.group_id,
      group_name: r.group_name,
    }))
    .sort(
      (a, b) =>
        b.leaderboard_points - a.leaderboard_points ||
        (a.last_score ?? "\uffff").localeCompare(b.last_score ?? "\uffff") ||
        a.id - b.id,
    );
}
