import { isUniqueViolation, Prisma } from "@flagship/db";
import { AppError, challengeValue, solveWorth } from "@flagship/shared";
import type { Context } from "../context.ts";
import type { Standing, Standings } from "../leaderboard/standings.ts";
import { retryTransaction } from "./locking.ts";

export interface SolveInput {
  challengeId: number;
  userId: number;
  teamId: number;
  /** Whether the solve counts on the leaderboard (enable_scoring on and the event not over). */
  scoring: boolean;
  /**
   * Whether this solve may take first blood. False for a hidden challenge (staff testing it), so
   * the first real team still gets first blood once the challenge is visible.
   */
  firstBloodAllowed: boolean;
  /** The address the flag came from. */
  ip?: string | null;
  /** When the solve happened, if not now (a solve carried over by an import). */
  at?: Date;
  /** The flag as sent, kept for the staff submissions log. */
  flag?: string | null;
  /** The staff member marking the challenge solved for the team (no flag sent). */
  markedById?: number | null;
}

export interface SolveOutcome {
  solveId: number;
  /** The challenge's value for this solve (its current score, before any penalty). */
  points: number;
  penalty: number;
  firstBlood: boolean;
  /** The challenge's solve count with this solve. */
  solveCount: number;
  /** True when a decay challenge's value changed and earlier solvers were re-scored. */
  rescored: boolean;
  teamName: string;
  challengeName: string;
  explanation: string;
  /** When the solve happened. */
  timestamp: Date;
  /** The totals of every team and user this solve moved (the solver's, and on a re-scoring every earlier solver's). */
  standings: Standings;
}

interface Delta {
  points: number;
  leaderboard: number;
  touch: boolean;
}

function add(map: Map<number, Delta>, id: number, points: number, leaderboard: number, touch: boolean): void {
  const delta = map.get(id) ?? { points: 0, leaderboard: 0, touch: false };
  delta.points += points;
  delta.leaderboard += leaderboard;
  delta.touch ||= touch;
  map.set(id, delta);
}

/**
 * Records a correct solve and everything it changes, in one transaction: the solve row, the
 * challenge's solve count, first blood and current score, the user and team totals and score
 * records, and for decay challenges every earlier solver's re-scored totals. A deadlock or
 * serialization failure runs the transaction again (see locking.ts).
 */
export async function recordSolve(ctx: Pick<Context, "db">, input: SolveInput): Promise<SolveOutcome> {
  try {
    return await retryTransaction(() => ctx.db.$transaction((tx) => recordSolveIn(tx, input)));
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_solved_challenge");
    throw error;
  }
}

/** One solve inside a caller's transaction: recordSolvesIn with one entry, its refusal thrown. */
export async function recordSolveIn(tx: Prisma.TransactionClient, input: SolveInput): Promise<SolveOutcome> {
  const [result] = await recordSolvesIn(tx, [input]);
  if (result!.kind === "solve") return result!.outcome;
  throw result!.kind === "refused" ? result!.error : new Error("recordSolveIn: no attempt limit is given, so none can run out");
}

/** A correct flag to record; `attemptLimit` when the challenge limits a team's attempts. */
export interface SolveEntry extends SolveInput {
  attemptLimit?: number | null;
}

export type SolveResult = { kind: "solve"; outcome: SolveOutcome } | { kind: "limit" } | { kind: "refused"; error: AppError };

/**
 * Takes one attempt from the team's allowance for a challenge with an attempt limit (step 1 of the
 * lock order in locking.ts). The conditional upsert is atomic, so however many members submit at
 * once, at most `limit` attempts get through; and as the attempt commits with the solve or the
 * incorrect attempt it was taken for, every attempt counted is recorded.
 */
export async function takeAttempt(tx: Prisma.TransactionClient, teamId: number, challengeId: number, limit: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ attempts: number }[]>`
    INSERT INTO attempt_counters (team_id, challenge_id, attempts) VALUES (${teamId}, ${challengeId}, 1)
    ON CONFLICT (team_id, challenge_id) DO UPDATE SET attempts = attempt_counters.attempts + 1
      WHERE attempt_counters.attempts < ${limit}
    RETURNING attempts`;
  return rows.length > 0;
}

const refused = (code: "already_solved_challenge" | "permission_denied" | "not_found"): SolveResult => ({ kind: "refused", error: new AppError(code) });

interface ChallengeRow {
  id: number;
  solve_count: number;
  score: number;
  current_score: number;
  points_type: string;
  flag_metadata: unknown;
  tiebreaker: boolean;
  name: string;
  post_score_explanation: string;
}

/**
 * Correct solves, of one challenge or many, all in the caller's transaction, with the locks taken
 * in the order locking.ts documents (each step's rows in id order); the answer for each entry in
 * the order given, which is the order a challenge's solves count in (solve count, first blood). A
 * batch costs about what one solve did, a statement a step for all its solves: the challenge rows
 * locked and counted, the solves inserted, each decay challenge's earlier solvers re-scored once at
 * the value the batch leaves (one score record each), the moved totals updated. The totals come out
 * as if the solves had been recorded one after another: every solve of a decay challenge is worth
 * its final value either way.
 *
 * One entry a (team, challenge). Each entry is refused on its own (the rest still recorded):
 * already_solved_challenge for a team that solved the challenge before (a lone entry: the unique
 * index's violation, thrown), permission_denied when the
 * solver's team changed while the flag was checked (the solver's row is locked first, as a
 * concurrent leave locks it), not_found when the challenge is gone; `limit` when its team's
 * attempts ran out. A refused entry spends no attempt. A solve committed by another server copy
 * after the check fails the batch with a unique violation, which the caller turns into running
 * the entries one by one.
 */
export async function recordSolvesIn(tx: Prisma.TransactionClient, entries: SolveEntry[]): Promise<SolveResult[]> {
  const pairOf = (e: SolveEntry) => `${e.teamId}:${e.challengeId}`;
  if (new Set(entries.map(pairOf)).size !== entries.length) throw new Error("recordSolvesIn: one entry a team and challenge");
  const results: (SolveResult | undefined)[] = entries.map(() => undefined);
  const pending = () => entries.flatMap((e, i) => (results[i] ? [] : [i]));
  // Solves committed before this batch: refused before an attempt is taken for them. A lone solve
  // skips the read: the unique (team, challenge) index refuses it, and its whole transaction, attempt
  // included, rolls back, which is the answer it would have got.
  const solved =
    entries.length === 1
      ? []
      : await tx.$queryRaw<{ team_id: number; challenge_id: number }[]>`
    SELECT s.team_id, s.challenge_id
      FROM solves s JOIN unnest(${entries.map((e) => e.teamId)}::int[], ${entries.map((e) => e.challengeId)}::int[]) AS p(team_id, challenge_id)
        ON s.team_id = p.team_id AND s.challenge_id = p.challenge_id`;
  const solvedPairs = new Set(solved.map((r) => `${r.team_id}:${r.challenge_id}`));
  entries.forEach((e, i) => {
    if (solvedPairs.has(pairOf(e))) results[i] = refused("already_solved_challenge");
  });
  // 1. attempt counters, in (team, challenge) order.
  const tookAttempt = new Set<number>();
  const byTeamThenChallenge = (a: number, b: number) => entries[a]!.teamId - entries[b]!.teamId || entries[a]!.challengeId - entries[b]!.challengeId;
  for (const i of pending().sort(byTeamThenChallenge)) {
    const { teamId, challengeId, attemptLimit } = entries[i]!;
    if (attemptLimit == null) continue;
    if (await takeAttempt(tx, teamId, challengeId, attemptLimit)) tookAttempt.add(i);
    else results[i] = { kind: "limit" };
  }
  // 2. the solvers' rows, in id order: a user who left (or was moved out of) the team meanwhile is refused.
  const userIds = [...new Set(pending().map((i) => entries[i]!.userId))].sort((a, b) => a - b);
  if (userIds.length > 0) {
    const solvers = await tx.$queryRaw<{ id: number; team_id: number | null }[]>`
      SELECT id, team_id FROM users WHERE id = ANY(${userIds}::int[]) ORDER BY id FOR NO KEY UPDATE`;
    const teamOf = new Map(solvers.map((r) => [r.id, r.team_id]));
    for (const i of pending()) {
      if (teamOf.get(entries[i]!.userId) === entries[i]!.teamId) continue;
      results[i] = refused("permission_denied");
      // A refused solve spends no attempt (alone, its transaction would have rolled back): the
      // attempt taken for it is given back, under the counter's row lock this transaction holds.
      if (tookAttempt.has(i)) {
        await tx.$executeRaw`UPDATE attempt_counters SET attempts = attempts - 1 WHERE team_id = ${entries[i]!.teamId} AND challenge_id = ${entries[i]!.challengeId}`;
      }
    }
  }
  if (pending().length === 0) return results as SolveResult[];

  // 3. the challenge rows, in id order: locked, and who held first blood before this batch read.
  const challengeIds = [...new Set(pending().map((i) => entries[i]!.challengeId))].sort((a, b) => a - b);
  const locked = await tx.$queryRaw<{ id: number; first_blood_team_id: number | null }[]>`
    SELECT id, first_blood_team_id FROM challenges WHERE id = ANY(${challengeIds}::int[]) ORDER BY id FOR NO KEY UPDATE`;
  const bloodBefore = new Map(locked.map((r) => [r.id, r.first_blood_team_id]));
  for (const i of pending()) if (!bloodBefore.has(entries[i]!.challengeId)) results[i] = refused("not_found");
  const accepted = pending();
  if (accepted.length === 0) return results as SolveResult[];
  // Each challenge's solves in the order they came; first blood to the first that may take it.
  const groups = new Map<number, number[]>();
  for (const i of accepted) {
    const group = groups.get(entries[i]!.challengeId);
    if (group) group.push(i);
    else groups.set(entries[i]!.challengeId, [i]);
  }
  const bloodIndex = new Map<number, number>();
  for (const [id, group] of groups) {
    const first = bloodBefore.get(id) === null ? group.find((i) => entries[i]!.firstBloodAllowed) : undefined;
    if (first !== undefined) bloodIndex.set(id, first);
  }
  const ids = [...groups.keys()];
  const counted = await tx.$queryRaw<ChallengeRow[]>`
    UPDATE challenges c
       SET solve_count = c.solve_count + d.n,
           first_blood_team_id = COALESCE(c.first_blood_team_id, d.blood)
      FROM unnest(${ids}::int[], ${ids.map((id) => groups.get(id)!.length)}::int[], ${ids.map((id) => (bloodIndex.has(id) ? entries[bloodIndex.get(id)!]!.teamId : null))}::int[]) AS d(id, n, blood)
     WHERE c.id = d.id
    RETURNING c.id, c.solve_count, c.score, c.current_score, c.points_type, c.flag_metadata, c.tiebreaker, c.name, c.post_score_explanation`;
  const challenges = new Map(counted.map((c) => [c.id, c]));
  const valueOf = new Map(counted.map((c) => [c.id, challengeValue(c.points_type, c.score, c.solve_count, c.flag_metadata)]));
  const countBefore = (id: number) => challenges.get(id)!.solve_count - groups.get(id)!.length;
  const rescored = new Set(counted.filter((c) => c.points_type === "decay" && c.solve_count > 1 && valueOf.get(c.id) !== c.current_score).map((c) => c.id));
  const moved = counted.filter((c) => valueOf.get(c.id) !== c.current_score);
  if (moved.length > 0) {
    await tx.$executeRaw`
      UPDATE challenges c SET current_score = d.points
        FROM unnest(${moved.map((c) => c.id)}::int[], ${moved.map((c) => valueOf.get(c.id)!)}::int[]) AS d(id, points)
       WHERE c.id = d.id`;
  }
  // Read under the challenge rows' locks, which every hint use of them waits for (locking.ts), so a
  // hint use committed before this batch is charged.
  const penalties = await tx.$queryRaw<{ team_id: number; challenge_id: number; penalty: number }[]>`
    SELECT u.team_id, u.challenge_id, COALESCE(SUM(h.penalty), 0)::int AS penalty
      FROM hint_uses u JOIN hints h ON h.id = u.hint_id
      JOIN unnest(${accepted.map((i) => entries[i]!.teamId)}::int[], ${accepted.map((i) => entries[i]!.challengeId)}::int[]) AS p(team_id, challenge_id)
        ON u.team_id = p.team_id AND u.challenge_id = p.challenge_id
     GROUP BY u.team_id, u.challenge_id`;
  const penaltyByPair = new Map(penalties.map((r) => [`${r.team_id}:${r.challenge_id}`, r.penalty]));
  const penaltyOf = (i: number) => penaltyByPair.get(pairOf(entries[i]!)) ?? 0;
  const now = new Date();
  const at = (i: number) => entries[i]!.at ?? now;

  // 4. the solves, each worth the value its challenge is left at.
  const solves = await tx.solve.createManyAndReturn({
    data: accepted.map((i) => {
      const e = entries[i]!;
      return {
        teamId: e.teamId,
        userId: e.userId,
        challengeId: e.challengeId,
        points: valueOf.get(e.challengeId)!,
        penalty: penaltyOf(i),
        firstBlood: bloodIndex.get(e.challengeId) === i,
        scoring: e.scoring,
        tiebreaker: challenges.get(e.challengeId)!.tiebreaker,
        timestamp: at(i),
        ip: e.ip ?? null,
        flag: e.flag ?? null,
        markedById: e.markedById ?? null,
      };
    }),
    select: { id: true, teamId: true, challengeId: true },
  });
  const solveOf = new Map(solves.map((r) => [`${r.teamId}:${r.challengeId}`, r.id]));

  const users = new Map<number, Delta>();
  const teams = new Map<number, Delta>();
  const records: Prisma.ScoreRecordCreateManyInput[] = [];
  for (const i of accepted) {
    const e = entries[i]!;
    const worth = solveWorth(valueOf.get(e.challengeId)!, penaltyOf(i));
    const tiebreaker = challenges.get(e.challengeId)!.tiebreaker;
    add(users, e.userId, worth, e.scoring ? worth : 0, tiebreaker);
    add(teams, e.teamId, worth, e.scoring ? worth : 0, tiebreaker);
    records.push({ userId: e.userId, teamId: e.teamId, solveId: solveOf.get(pairOf(e))!, reason: "solve", points: worth, leaderboard: e.scoring, timestamp: at(i) });
  }
  // Decay challenges whose value moved: their earlier solvers, re-scored once at the new value.
  const rescoring = [...rescored].filter((id) => countBefore(id) > 0);
  if (rescoring.length > 0) {
    const newIds = [...solveOf.values()];
    const earlier = await tx.solve.findMany({
      where: { challengeId: { in: rescoring }, id: { notIn: newIds } },
      select: { id: true, userId: true, teamId: true, challengeId: true, points: true, penalty: true, scoring: true },
    });
    for (const old of earlier) {
      const points = valueOf.get(old.challengeId)!;
      const delta = solveWorth(points, old.penalty) - solveWorth(old.points, old.penalty);
      if (delta === 0) continue;
      add(users, old.userId, delta, old.scoring ? delta : 0, false);
      add(teams, old.teamId, delta, old.scoring ? delta : 0, false);
      records.push({ userId: old.userId, teamId: old.teamId, solveId: old.id, reason: "decay", points: delta, leaderboard: old.scoring, timestamp: now });
    }
    await tx.$executeRaw`
      UPDATE solves s SET points = d.points
        FROM unnest(${rescoring}::int[], ${rescoring.map((id) => valueOf.get(id)!)}::int[]) AS d(challenge_id, points)
       WHERE s.challenge_id = d.challenge_id AND s.id <> ALL(${newIds}::int[])`;
  }

  // 5. the moved totals: users, then teams, each in id order.
  const userRows = await applyDeltas(tx, "users", users, now);
  const teamRows = await applyDeltas(tx, "teams", teams, now);
  await tx.scoreRecord.createMany({ data: records });
  const standing = (r: Moved): Standing => ({ id: r.id, points: r.leaderboard_points, last: r.last_score_at?.toISOString() ?? null, listed: r.listed });
  const teamRow = new Map(teamRows.map((r) => [r.id, r]));
  const userRow = new Map(userRows.map((r) => [r.id, r]));
  for (const [id, group] of groups) {
    const challenge = challenges.get(id)!;
    group.forEach((i, n) => {
      const e = entries[i]!;
      results[i] = {
        kind: "solve",
        outcome: {
          solveId: solveOf.get(pairOf(e))!,
          points: valueOf.get(id)!,
          penalty: penaltyOf(i),
          firstBlood: bloodIndex.get(id) === i,
          solveCount: countBefore(id) + n + 1,
          // A challenge's first solve in the batch carries its re-scoring (one event 7); the batch's
          // first solve carries every total the batch moved, the others their own team's and user's.
          rescored: rescored.has(id) && n === 0,
          teamName: teamRow.get(e.teamId)?.name ?? "",
          challengeName: challenge.name,
          explanation: challenge.post_score_explanation,
          timestamp: at(i),
          standings:
            i === accepted[0]
              ? { teams: teamRows.map(standing), users: userRows.map(standing) }
              : { teams: [standing(teamRow.get(e.teamId)!)], users: [standing(userRow.get(e.userId)!)] },
        },
      };
    });
  }
  return results as SolveResult[];
}

type Moved = { id: number; name: string; leaderboard_points: number; last_score_at: Date | null; listed: boolean };

/**
 * Adds point deltas to users or teams, locking the rows in id order first. Answers each row's new
 * leaderboard totals, its name and whether the public board lists it.
 */
async function applyDeltas(tx: Prisma.TransactionClient, table: "users" | "teams", deltas: Map<number, Delta>, now: Date): Promise<Moved[]> {
  const ids = [...deltas.keys()].sort((a, b) => a - b);
  const points = ids.map((id) => deltas.get(id)!.points);
  const leaderboard = ids.map((id) => deltas.get(id)!.leaderboard);
  const touch = ids.map((id) => deltas.get(id)!.touch);
  const name = table === "teams" ? Prisma.sql`name` : Prisma.sql`username`;
  // Who the public board lists: the same rules as the board's own load.
  const listed = table === "teams" ? Prisma.sql`t.is_visible` : Prisma.sql`(t.is_visible AND t.is_active AND NOT t.is_staff)`;
  const target = Prisma.raw(table);
  await tx.$queryRaw`SELECT id FROM ${target} WHERE id = ANY(${ids}::int[]) ORDER BY id FOR NO KEY UPDATE`;
  return tx.$queryRaw<Moved[]>`
    UPDATE ${target} AS t
       SET points = t.points + d.points,
           leaderboard_points = t.leaderboard_points + d.leaderboard,
           last_score_at = CASE WHEN d.touch THEN ${now} ELSE t.last_score_at END
      FROM unnest(${ids}::int[], ${points}::int[], ${leaderboard}::int[], ${touch}::boolean[]) AS d(id, points, leaderboard, touch)
     WHERE t.id = d.id
    RETURNING t.id, t.${name}::text AS name, t.leaderboard_points, t.last_score_at, ${listed} AS listed`;
}
