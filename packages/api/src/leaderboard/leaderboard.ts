import { eventGates, isUnlocked, type Page, type PageInput, solveWorth } from "@flagship/shared";
import type { Context } from "../context.ts";
import { releasedChallengeWhere } from "../challenges/access.ts";
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

/**
 * Board filters: `group` narrows a board to one leaderboard group (division); `players` gives staff
 * the board players see (frozen while the freeze lasts) rather than the live one.
 */
export interface BoardFilter {
  group?: number | undefined;
  players?: boolean | undefined;
}

export type Hidden = { hidden: true };

async function board(ctx: Context, kind: BoardKind, filter: BoardFilter = {}): Promise<BoardEntry[] | null> {
  const view = await boardView(ctx, filter);
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

export async function userLeaderboard(ctx: Context, input: PageInput, filter: BoardFilter = {}): Promise<Page<UserRow> | Hidden> {
  const entries = await board(ctx, "user", { players: filter.players });
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
type UserPoint = GraphPoint & { user_name: string; user_id: number };
type TeamPoint = GraphPoint & { team_name: string; team_id: number; leaderboard_group_name: string | null };
export interface LeaderboardGraph {
  user: UserPoint[];
  team?: TeamPoint[];
}

const TOP = 10;
/** Solves and awards (moderation/awards.ts) drawn together, oldest first; a stable sort keeps each kind's own order. */
function inTimeOrder<T extends { timestamp: Date }>(points: T[]): T[] {
  return points.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
}

/**
 * Series per version of a board (of a group): a board is replaced whenever a total on it moves (a
 * solve, a re-score, a freeze settling), so the solves behind a graph are read once per version,
 * not once per reader.
 */
const userSeries = new WeakMap<BoardEntry[], Promise<UserPoint[]>>();
const teamSeries = new WeakMap<BoardEntry[], Promise<TeamPoint[]>>();

function seriesOf<T>(memo: WeakMap<BoardEntry[], Promise<T>>, board: BoardEntry[], load: () => Promise<T>): Promise<T> {
  let series = memo.get(board);
  if (!series) {
    const loading = load();
    series = loading;
    memo.set(board, loading);
    // A failed read is forgotten, so the next reader tries again.
    loading.catch(() => {
      if (memo.get(board) === loading) memo.delete(board);
    });
  }
  return series;
}

const GRAPH_SOLVE_SELECT = { userId: true, challengeId: true, points: true, penalty: true, timestamp: true } as const;

/**
 * What each drawn solve is worth: its stored points, which a decay re-score rewrites in the same
 * transaction for every earlier solve of the challenge, so a series sums to the account's
 * leaderboard points; on a frozen board, the challenge's value at the freeze, as the board counts it.
 */
async function solveWorthFor(ctx: Context, frozenAt: Date | null): Promise<(s: { challengeId: number; points: number; penalty: number }) => number> {
  const snapshot = frozenAt ? await boardCache(ctx).snapshot(ctx.db, frozenAt) : null;
  return (s) => solveWorth(snapshot?.challenges.get(s.challengeId)?.value ?? s.points, s.penalty);
}

/**
 * One point per scoring solve of the top 10 users and teams, oldest first, each worth what it
 * counts for now (see solveWorthFor); with a group, of the top 10 of that group (users by their
 * team's group). A frozen board's graph holds the solves up to the freeze only.
 */
export async function leaderboardGraph(ctx: Context, filter: BoardFilter = {}): Promise<LeaderboardGraph | Hidden> {
  const view = await boardView(ctx, filter);
  if (view.hidden) return { hidden: true };
  const cache = boardCache(ctx);
  const until = view.frozenAt ? { timestamp: { lte: view.frozenAt } } : {};
  const users = groupBoard(await cache.get(ctx.db, "user", view.frozenAt), filter.group);
  const graph: LeaderboardGraph = {
    user: await seriesOf(userSeries, users, async () => {
      const top = users.slice(0, TOP);
      const worth = await solveWorthFor(ctx, view.frozenAt);
      const solves = await ctx.db.solve.findMany({
        where: { userId: { in: top.map((u) => u.id) }, scoring: true, ...until },
        select: GRAPH_SOLVE_SELECT,
        orderBy: [{ timestamp: "asc" }, { id: "asc" }],
      });
      const awards = await ctx.db.scoreRecord.findMany({
        where: { userId: { in: top.map((u) => u.id) }, leaderboard: true, reason: "award", ...until },
        select: { userId: true, points: true, timestamp: true },
      });
      const names = new Map(top.map((u) => [u.id, u.name]));
      const points = [
        ...solves.map((s) => ({ userId: s.userId, points: worth(s), timestamp: s.timestamp })),
        ...awards.map((a) => ({ userId: a.userId!, points: a.points, timestamp: a.timestamp })),
      ];
      return inTimeOrder(points).map((p) => ({ points: p.points, timestamp: p.timestamp.toISOString(), user_name: names.get(p.userId) ?? "", user_id: p.userId }));
    }),
  };
  if (view.teams) {
    const teams = groupBoard(await cache.get(ctx.db, "team", view.frozenAt), filter.group);
    graph.team = await seriesOf(teamSeries, teams, async () => {
      const top = new Map(teams.slice(0, TOP).map((t) => [t.id, t]));
      const worth = await solveWorthFor(ctx, view.frozenAt);
      // A team's points are its members' (they move with a member staff move to another team), so
      // its series is its members' solves.
      const solves = await ctx.db.solve.findMany({
        where: { user: { teamId: { in: [...top.keys()] } }, scoring: true, ...until },
        select: { ...GRAPH_SOLVE_SELECT, user: { select: { teamId: true } } },
        orderBy: [{ timestamp: "asc" }, { id: "asc" }],
      });
      // Awards to the team, and to its players while in it (moderation/awards.ts records both with the team).
      const awards = await ctx.db.scoreRecord.findMany({
        where: { teamId: { in: [...top.keys()] }, leaderboard: true, reason: "award", ...until },
        select: { teamId: true, points: true, timestamp: true },
      });
      const points = [
        ...solves.map((s) => ({ teamId: s.user.teamId!, points: worth(s), timestamp: s.timestamp })),
        ...awards.map((a) => ({ teamId: a.teamId!, points: a.points, timestamp: a.timestamp })),
      ];
      return inTimeOrder(points).map((p) => {
        const team = top.get(p.teamId)!;
        return { points: p.points, timestamp: p.timestamp.toISOString(), team_name: team.name, team_id: team.id, leaderboard_group_name: team.group_name };
      });
    });
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
      ...(!view.staff && { challenge: releasedChallengeWhere() }),
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
    ctx.db.challenge.findMany({ where: view.staff ? { hidden: false } : releasedChallengeWhere(), select: { id: true, name: true, unlockRequirements: true }, orderBy: { id: "asc" } }),
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
