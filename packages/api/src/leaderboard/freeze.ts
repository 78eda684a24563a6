import type { Db } from "@flagship/db";
import { challengeValue, type Config, solveWorth } from "@flagship/shared";
import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";
import { boardCache } from "./board.ts";

/**
 * # The scoreboard freeze
 *
 * Once `scoreboard_freeze_time` has passed, players and anonymous visitors see the event as it
 * stood at the freeze on every path, plus their own team's later solves, each worth what its
 * challenge was worth at the freeze. Other teams' later solves, and the decay they cause, show
 * nowhere until staff reveal the final board (reveal-board.ts clears the freeze time): the end of
 * the event does not lift the freeze, as in CTFd, so the winners are announced at the prize-giving
 * rather than by the clock. Staff see everything live. Other teams' wrong
 * flags after the freeze are not counted either (team, member and public statistics), and a first
 * blood after it is not announced to the webhook (challenges/submit-flag.ts).
 *
 * What stood at the freeze is one snapshot per freeze time (below), read once and kept beside the
 * boards it also builds (board.ts): every team's and user's totals, every challenge's solve count,
 * value and first blood, and the number of solves. Reads look their numbers up in it.
 *
 * The snapshot is what is live less what happened after the freeze (the score records, solves and
 * first bloods dated later), so reading it again at any time gives the same answer: later solves
 * add to the live totals and to the later records in one transaction. Membership, visibility and
 * config changes drop it with the boards, and challenge edits drop it too; solves drop it only
 * while transactions begun before the freeze may still be committing (FREEZE_SETTLE_MS).
 */
export interface FrozenTotals {
  points: number;
  leaderboardPoints: number;
  /** The last tiebreaker solve up to the freeze, ISO. */
  last: string | null;
}

export interface FrozenChallenge {
  solveCount: number;
  currentScore: number;
  firstBlood: string | null;
  /**
   * What each of its solves is worth in a frozen view before the hint penalty: its value at the
   * freeze when it was solved since (a decay challenge's earlier solves were re-scored by those
   * solves), else null: each solve keeps its own points.
   */
  value: number | null;
}

export interface FreezeSnapshot {
  at: Date;
  teams: Map<number, FrozenTotals>;
  users: Map<number, FrozenTotals>;
  challenges: Map<number, FrozenChallenge>;
  /** Correct solves up to the freeze. */
  solves: number;
}

const NONE: FrozenTotals = { points: 0, leaderboardPoints: 0, last: null };

/** When the scoreboard froze, while it is frozen (the freeze time passed and staff have not revealed the board); else null. */
export function freezeTime(config: Pick<Config, "scoreboard_freeze_time">, now: number): Date | null {
  const freeze = config.scoreboard_freeze_time;
  return freeze !== null && freeze <= now ? new Date(freeze * 1000) : null;
}

/** A caller's frozen view: the snapshot, and the team whose own later solves they see. */
export interface FrozenView {
  at: Date;
  snapshot: FreezeSnapshot;
  teamId: number | null;
}

/** What the caller sees of the event while it is frozen; null when they see it live (staff, or no freeze). */
export async function frozenView(ctx: Context): Promise<FrozenView | null> {
  const at = freezeTime(await ctx.config.all(), ctx.now());
  if (!at || (await hasStaffPowers(ctx))) return null;
  return { at, snapshot: await boardCache(ctx).snapshot(ctx.db, at), teamId: ctx.actor?.teamId ?? null };
}

/** The snapshot a caller whose staff powers are already known reads from, or null (live). */
export async function frozenSnapshot(ctx: Context, staff: boolean): Promise<FreezeSnapshot | null> {
  if (staff) return null;
  const at = freezeTime(await ctx.config.all(), ctx.now());
  return at && boardCache(ctx).snapshot(ctx.db, at);
}

/** How a caller's own cached views are built (members/own-views.ts): "live", or the freeze time. */
export async function viewMode(ctx: Context): Promise<string> {
  const at = freezeTime(await ctx.config.all(), ctx.now());
  return at && !(await hasStaffPowers(ctx)) ? String(at.getTime()) : "live";
}

/** Whether a frozen view shows a solve: one up to the freeze, or the viewer's own team's. */
export function showsSolve(view: FrozenView, solve: { team: number; timestamp: Date | string }): boolean {
  return new Date(solve.timestamp).getTime() <= view.at.getTime() || solve.team === view.teamId;
}

/**
 * The rows a frozen view shows of solves or wrong flags: those up to the freeze, or the viewer's
 * own team's (a where-clause for either table).
 */
export function shownInFrozenView(view: FrozenView): { OR: ({ timestamp: { lte: Date } } | { teamId: number })[] } {
  return { OR: [{ timestamp: { lte: view.at } }, ...(view.teamId !== null ? [{ teamId: view.teamId }] : [])] };
}

/** What a solve is worth in a frozen view (after its hint penalty). */
export function frozenWorth(view: FrozenView, solve: { challengeId: number; points: number; penalty: number }): number {
  return solveWorth(view.snapshot.challenges.get(solve.challengeId)?.value ?? solve.points, solve.penalty);
}

export function frozenTeam(view: FrozenView, id: number): FrozenTotals {
  return view.snapshot.teams.get(id) ?? NONE;
}

export function frozenUser(view: FrozenView, id: number): FrozenTotals {
  return view.snapshot.users.get(id) ?? NONE;
}

/** A solve of the viewer's own team after the freeze, as far as totals need it. */
export interface LaterSolve {
  userId: number;
  teamId: number;
  challengeId: number;
  points: number;
  penalty: number;
  scoring: boolean;
  timestamp: Date;
}

/**
 * The own solves after the freeze that a frozen view adds to the snapshot: the viewer's team's
 * (`teamId`), or one user's while in it (`userId` with `teamId`), or all of one user's (`userId`
 * alone, for their own profile). One small indexed read.
 */
export async function laterSolves(ctx: Pick<Context, "db">, view: FrozenView, who: { teamId?: number; userId?: number }): Promise<LaterSolve[]> {
  if (who.teamId === undefined && who.userId === undefined) return [];
  return ctx.db.solve.findMany({
    where: { ...(who.teamId !== undefined && { teamId: who.teamId }), ...(who.userId !== undefined && { userId: who.userId }), timestamp: { gt: view.at } },
    select: { userId: true, teamId: true, challengeId: true, points: true, penalty: true, scoring: true, timestamp: true },
  });
}

/** Frozen totals with own later solves added, each worth its challenge's value at the freeze. */
export function withLater(view: FrozenView, totals: FrozenTotals, later: readonly LaterSolve[]): { points: number; leaderboardPoints: number } {
  let points = totals.points;
  let leaderboardPoints = totals.leaderboardPoints;
  for (const solve of later) {
    const worth = frozenWorth(view, solve);
    points += worth;
    if (solve.scoring) leaderboardPoints += worth;
  }
  return { points, leaderboardPoints };
}

type TotalsRow = { id: number; points: number; leaderboard: number; last: Date | null };
type ChallengeRow = {
  id: number;
  points_type: string;
  score: number;
  current_score: number;
  flag_metadata: unknown;
  solve_count: number;
  later: number;
  first_blood: string | null;
  blood_later: boolean | null;
};

/** Reads the snapshot of the event at `at` (see the comment at the top): four statements whatever the event's size. */
export async function loadFreezeSnapshot(db: Db, at: Date): Promise<FreezeSnapshot> {
  const [teams, users, challenges, solves] = await Promise.all([
    db.$queryRaw<TotalsRow[]>`
      SELECT t.id, (t.points - COALESCE(r.points, 0))::int AS points, (t.leaderboard_points - COALESCE(r.leaderboard, 0))::int AS leaderboard,
             CASE WHEN t.last_score_at IS NULL OR t.last_score_at <= ${at} THEN t.last_score_at
                  ELSE (SELECT MAX(s.timestamp) FROM solves s WHERE s.team_id = t.id AND s.scoring AND s.tiebreaker AND s.timestamp <= ${at}) END AS last
        FROM teams t
        LEFT JOIN (SELECT team_id, SUM(points) AS points, COALESCE(SUM(points) FILTER (WHERE leaderboard), 0) AS leaderboard
                     FROM score_records WHERE timestamp > ${at} AND team_id IS NOT NULL GROUP BY team_id) r ON r.team_id = t.id`,
    db.$queryRaw<TotalsRow[]>`
      SELECT u.id, (u.points - COALESCE(r.points, 0))::int AS points, (u.leaderboard_points - COALESCE(r.leaderboard, 0))::int AS leaderboard,
             CASE WHEN u.last_score_at IS NULL OR u.last_score_at <= ${at} THEN u.last_score_at
                  ELSE (SELECT MAX(s.timestamp) FROM solves s WHERE s.user_id = u.id AND s.scoring AND s.tiebreaker AND s.timestamp <= ${at}) END AS last
        FROM users u
        LEFT JOIN (SELECT user_id, SUM(points) AS points, COALESCE(SUM(points) FILTER (WHERE leaderboard), 0) AS leaderboard
                     FROM score_records WHERE timestamp > ${at} AND user_id IS NOT NULL GROUP BY user_id) r ON r.user_id = u.id`,
    db.$queryRaw<ChallengeRow[]>`
      SELECT c.id, c.points_type, c.score, c.current_score, c.flag_metadata, c.solve_count, COALESCE(l.n, 0)::int AS later,
             ft.name::text AS first_blood, fs.timestamp > ${at} AS blood_later
        FROM challenges c
        LEFT JOIN (SELECT challenge_id, count(*) AS n FROM solves WHERE timestamp > ${at} GROUP BY challenge_id) l ON l.challenge_id = c.id
        LEFT JOIN teams ft ON ft.id = c.first_blood_team_id
        LEFT JOIN solves fs ON fs.challenge_id = c.id AND fs.team_id = c.first_blood_team_id`,
    db.solve.count({ where: { timestamp: { lte: at } } }),
  ]);
  const totals = (rows: TotalsRow[]) =>
    new Map(rows.map((r) => [r.id, { points: r.points, leaderboardPoints: r.leaderboard, last: r.last?.toISOString() ?? null }]));
  return {
    at,
    teams: totals(teams),
    users: totals(users),
    challenges: new Map(
      challenges.map((c) => {
        const solveCount = Math.max(c.solve_count - c.later, 0);
        // Nothing since the freeze: the live value is the frozen one (staff edits included).
        const value = c.later === 0 ? null : challengeValue(c.points_type, c.score, solveCount, c.flag_metadata);
        return [c.id, { solveCount, currentScore: value ?? c.current_score, firstBlood: c.blood_later ? null : c.first_blood, value }];
      }),
    ),
    solves,
  };
}
