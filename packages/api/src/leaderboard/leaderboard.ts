import { eventGates, isUnlocked, type Page, type PageInput, solveWorth } from "@flagship/shared";
import type { Context } from "../context.ts";
import { type BoardEntry, type BoardKind, boardCache, groupBoard, previousBoard } from "./board.ts";
import { boardView } from "./view.ts";

export interface UserRow {
  id: number;
  username: string;
  leaderboard_points: number;
}
export interface TeamRow {
  id: number;
  name: string;
  leaderboard_points: number;
  /** The team's leaderboard group (division), null without one. */
  leaderboard_group_name: string | null;
}

/** Board filters: `group` narrows a board to one leaderboard group (division). */
export interface BoardFilter {
  group?: number | undefined;
}

export type Hidden = { hidden: true };

async function board(ctx: Context, kind: BoardKind, filter: BoardFilter = {}): Promise<BoardEntry[] | null> {
  const view = await boardView(ctx);
  if (view.hidden) return null;
  return groupBoard(await boardCache(ctx).get(ctx.db, kind, view.frozenAt), filter.group);
}

// Pages of a board, kept while the board itself is: the same page is the same object, so the
// transport can keep its serialised form too. A board patched after a solve keeps the pages of its
// previous version whose entries did not move (typically all but those between the solver's old
// and new place).
const pages = new WeakMap<BoardEntry[], Map<string, Page<unknown>>>();

/** Whether two boards of one length hold the very same entries from `offset` for `limit`. */
function sameSlice(a: BoardEntry[], b: BoardEntry[], offset: number, limit: number): boolean {
  if (a.length !== b.length) return false;
  const end = Math.min(a.length, offset + limit);
  for (let i = offset; i < end; i++) if (a[i] !== b[i]) return false;
  return true;
}

function page<T>(entries: BoardEntry[], input: PageInput, map: (e: BoardEntry) => T): Page<T> {
  let memo = pages.get(entries);
  if (!memo) pages.set(entries, (memo = new Map()));
  const key = `${input.offset}:${input.limit}`;
  let found = memo.get(key) as Page<T> | undefined;
  if (!found) {
    const previous = previousBoard(entries);
    const kept = previous && (pages.get(previous)?.get(key) as Page<T> | undefined);
    if (kept && previous && sameSlice(previous, entries, input.offset, input.limit)) {
      found = kept;
      memo.set(key, found);
    }
  }
  if (!found) {
    found = { count: entries.length, total: entries.length, results: entries.slice(input.offset, input.offset + input.limit).map(map) };
    // Bounded: odd limits and offsets from scripts must not grow it without end.
    if (memo.size < 256) memo.set(key, found);
  }
  return found;
}

export async function userLeaderboard(ctx: Context, input: PageInput): Promise<Page<UserRow> | Hidden> {
  const entries = await board(ctx, "user");
  if (!entries) return { hidden: true };
  return page(entries, input, (e) => ({ id: e.id, username: e.name, leaderboard_points: e.leaderboard_points }));
}

export async function teamLeaderboard(ctx: Context, input: PageInput, filter: BoardFilter = {}): Promise<Page<TeamRow> | Hidden> {
  const entries = await board(ctx, "team", filter);
  if (!entries) return { hidden: true };
  return page(entries, input, (e) => ({ id: e.id, name: e.name, leaderboard_points: e.leaderboard_points, leaderboard_group_name: e.group_name }));
}

export interface GraphPoint {
  points: number;
  timestamp: string;
}
export interface LeaderboardGraph {
  user: (GraphPoint & { user_name: string; user_id: number })[];
  team?: (GraphPoint & { team_name: string; team_id: number; leaderboard_group_name: string | null })[];
}

const TOP = 10;
/** The score records the graph draws: solves, and awards staff gave or took (moderation/awards.ts). */
const GRAPH_REASONS = ["solve", "award"];

/**
 * One point per scoring solve of the top 10 users and teams (its value when solved), oldest first;
 * with a group, of the top 10 of that group (users by their team's group).
 */
export async function leaderboardGraph(ctx: Context, filter: BoardFilter = {}): Promise<LeaderboardGraph | Hidden> {
  const view = await boardView(ctx);
  if (view.hidden) return { hidden: true };
  const cache = boardCache(ctx);
  const topUsers = groupBoard(await cache.get(ctx.db, "user", view.frozenAt), filter.group).slice(0, TOP);
  const until = view.frozenAt ? { lte: view.frozenAt } : undefined;
  const userRecords = await ctx.db.scoreRecord.findMany({
    where: { userId: { in: topUsers.map((u) => u.id) }, leaderboard: true, reason: { in: GRAPH_REASONS }, ...(until && { timestamp: until }) },
    select: { userId: true, points: true, timestamp: true },
    orderBy: [{ timestamp: "asc" }, { id: "asc" }],
  });
  const userNames = new Map(topUsers.map((u) => [u.id, u.name]));
  const graph: LeaderboardGraph = {
    user: userRecords.map((r) => ({ points: r.points, timestamp: r.timestamp.toISOString(), user_name: userNames.get(r.userId!) ?? "", user_id: r.userId! })),
  };
  if (view.teams) {
    const topTeams = groupBoard(await cache.get(ctx.db, "team", view.frozenAt), filter.group).slice(0, TOP);
    const teamRecords = await ctx.db.scoreRecord.findMany({
      where: { teamId: { in: topTeams.map((t) => t.id) }, leaderboard: true, reason: { in: GRAPH_REASONS }, ...(until && { timestamp: until }) },
      select: { teamId: true, points: true, timestamp: true },
      orderBy: [{ timestamp: "asc" }, { id: "asc" }],
    });
    const teams = new Map(topTeams.map((t) => [t.id, t]));
    graph.team = teamRecords.map((r) => ({
      points: r.points,
      timestamp: r.timestamp.toISOString(),
      team_name: teams.get(r.teamId!)?.name ?? "",
      team_id: r.teamId!,
      leaderboard_group_name: teams.get(r.teamId!)?.group_name ?? null,
    }));
  }
  return graph;
}

export interface MatrixRow extends Omit<TeamRow, "leaderboard_group_name"> {
  solve_ids: number[];
}

/** Teams in board order with the ids of the challenges each has solved. */
export async function leaderboardMatrix(ctx: Context, input: PageInput): Promise<Page<MatrixRow> | Hidden> {
  const view = await boardView(ctx);
  if (view.hidden) return { hidden: true };
  const entries = await boardCache(ctx).get(ctx.db, "team", view.frozenAt);
  const slice = entries.slice(input.offset, input.offset + input.limit);
  const solves = await ctx.db.solve.findMany({
    where: {
      teamId: { in: slice.map((e) => e.id) },
      ...(view.frozenAt && { timestamp: { lte: view.frozenAt } }),
      // Staff may be testing hidden challenges; players must not learn they exist.
      ...(!view.staff && { challenge: { hidden: false } }),
    },
    select: { teamId: true, challengeId: true },
    orderBy: { timestamp: "asc" },
  });
  const byTeam = new Map<number, number[]>();
  for (const s of solves) (byTeam.get(s.teamId) ?? byTeam.set(s.teamId, []).get(s.teamId)!).push(s.challengeId);
  return {
    count: entries.length,
    total: entries.length,
    results: slice.map((e) => ({ id: e.id, name: e.name, leaderboard_points: e.leaderboard_points, solve_ids: byTeam.get(e.id) ?? [] })),
  };
}

export interface CtftimeFeed {
  tasks: string[];
  standings: {
    pos: number;
    team: string;
    score: number;
    taskStats: Record<string, { points: number; time: number }>;
    lastAccept: number;
  }[];
}

/**
 * The CTFtime scoreboard feed, when enable_ctftime is on (else `{}`). Times are epoch seconds.
 *
 * It is public, so it names only what every player can see: challenges that are neither hidden nor
 * locked behind unlock requirements (a locked challenge's solves still count in the score, under
 * no name). Before the event starts it is `{}`. Staff see it all (locked challenges, before the start).
 */
export async function ctftimeFeed(ctx: Context, filter: BoardFilter = {}): Promise<CtftimeFeed | Record<string, never>> {
  const view = await boardView(ctx);
  const config = await ctx.config.all();
  if (view.hidden || !config.enable_ctftime) return {};
  if (!view.staff && !eventGates(config, ctx.now()).started) return {};
  const entries = groupBoard(await boardCache(ctx).get(ctx.db, "team", view.frozenAt), filter.group);
  const [all, solves] = await Promise.all([
    ctx.db.challenge.findMany({ where: { hidden: false }, select: { id: true, name: true, unlockRequirements: true }, orderBy: { id: "asc" } }),
    ctx.db.solve.findMany({
      where: { scoring: true, ...(view.frozenAt && { timestamp: { lte: view.frozenAt } }) },
      select: { teamId: true, challengeId: true, points: true, penalty: true, timestamp: true },
    }),
  ]);
  const nothingSolved = new Set<number>();
  const challenges = view.staff ? all : all.filter((c) => isUnlocked(c.unlockRequirements, nothingSolved));
  const names = new Map(challenges.map((c) => [c.id, c.name]));
  const snapshot = view.frozenAt ? await boardCache(ctx).snapshot(ctx.db, view.frozenAt) : null;
  const stats = new Map<number, { tasks: CtftimeFeed["standings"][number]["taskStats"]; last: number }>();
  for (const s of solves) {
    const name = names.get(s.challengeId);
    if (name === undefined) continue;
    const entry = stats.get(s.teamId) ?? stats.set(s.teamId, { tasks: {}, last: 0 }).get(s.teamId)!;
    const time = Math.floor(s.timestamp.getTime() / 1000);
    // While frozen, a decay challenge's solves are worth what it was worth at the freeze.
    const points = snapshot?.challenges.get(s.challengeId)?.value ?? s.points;
    entry.tasks[name] = { points: solveWorth(points, s.penalty), time };
    entry.last = Math.max(entry.last, time);
  }
  return {
    tasks: challenges.map((c) => c.name),
    standings: entries.map((e, i) => ({
      pos: i + 1,
      team: e.name,
      score: e.leaderboard_points,
      taskStats: stats.get(e.id)?.tasks ?? {},
      lastAccept: stats.get(e.id)?.last ?? 0,
    })),
  };
}
