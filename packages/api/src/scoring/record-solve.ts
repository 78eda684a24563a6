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

/**
 * The body of recordSolve inside a caller's transaction, which takes its locks in the order
 * locking.ts documents. The caller turns a unique violation into already_solved_challenge.
 *
 * The solver's own row is locked first and its team checked: a concurrent leave locks the same
 * row first too, so either the leave committed (the user's team changed and we refuse with
 * permission_denied, recording nothing) or it waits for this solve and then sees it (and refuses
 * with challenge_solved).
 *
 * The challenge row is locked next: concurrent solves of one challenge queue up there, so solve
 * counts and decay values are computed one at a time. The unique (team, challenge) index then
 * makes a second solve by the same team fail. User and team rows are locked last, in id order,
 * so that overlapping re-scorings cannot deadlock.
 */
export async function recordSolveIn(tx: Prisma.TransactionClient, input: SolveInput): Promise<SolveOutcome> {
  const [solver] = await tx.$queryRaw<{ team_id: number | null }[]>`SELECT team_id FROM users WHERE id = ${input.userId} FOR NO KEY UPDATE`;
  // The user left (or was moved out of) the team while the flag was being checked.
  if (solver?.team_id !== input.teamId) throw new AppError("permission_denied");
  // Locks the challenge row and reads who held first blood before this solve.
  const [before] = await tx.$queryRaw<{ first_blood_team_id: number | null }[]>`
    SELECT first_blood_team_id FROM challenges WHERE id = ${input.challengeId} FOR NO KEY UPDATE`;
  if (!before) throw new AppError("not_found");
  const firstBlood = input.firstBloodAllowed && before.first_blood_team_id === null;
  const [challenge] = await tx.$queryRaw<
    { solve_count: number; first_blood_team_id: number | null; score: number; current_score: number; points_type: string; flag_metadata: unknown; tiebreaker: boolean; name: string; post_score_explanation: string }[]
  >`UPDATE challenges
      SET solve_count = solve_count + 1,
          first_blood_team_id = CASE WHEN ${firstBlood} THEN ${input.teamId}::int ELSE first_blood_team_id END
    WHERE id = ${input.challengeId}
    RETURNING solve_count, first_blood_team_id, score, current_score, points_type, flag_metadata, tiebreaker, name, post_score_explanation`;
  if (!challenge) throw new AppError("not_found");
  const points = challengeValue(challenge.points_type, challenge.score, challenge.solve_count, challenge.flag_metadata);
  const rescored = challenge.points_type === "decay" && challenge.solve_count > 1 && points !== challenge.current_score;
  if (points !== challenge.current_score) {
    await tx.$executeRaw`UPDATE challenges SET current_score = ${points} WHERE id = ${input.challengeId}`;
  }
  // Read under the challenge row lock, which every hint use of it waits for (locking.ts), so a hint
  // use committed before this solve is charged.
  const [{ penalty }] = (await tx.$queryRaw<{ penalty: number }[]>`
    SELECT COALESCE(SUM(h.penalty), 0)::int AS penalty
      FROM hint_uses u JOIN hints h ON h.id = u.hint_id
     WHERE u.team_id = ${input.teamId} AND u.challenge_id = ${input.challengeId}`) as [{ penalty: number }];
  const now = input.at ?? new Date();
  const solve = await tx.solve.create({
    data: {
      teamId: input.teamId,
      userId: input.userId,
      challengeId: input.challengeId,
      points,
      penalty,
      firstBlood,
      scoring: input.scoring,
      tiebreaker: challenge.tiebreaker,
      timestamp: now,
      ip: input.ip ?? null,
    },
    select: { id: true },
  });

  const worth = solveWorth(points, penalty);
  const users = new Map<number, Delta>();
  const teams = new Map<number, Delta>();
  add(users, input.userId, worth, input.scoring ? worth : 0, challenge.tiebreaker);
  add(teams, input.teamId, worth, input.scoring ? worth : 0, challenge.tiebreaker);
  const records: Prisma.ScoreRecordCreateManyInput[] = [
    { userId: input.userId, teamId: input.teamId, solveId: solve.id, reason: "solve", points: worth, leaderboard: input.scoring, timestamp: now },
  ];

  if (rescored) {
    const earlier = await tx.solve.findMany({
      where: { challengeId: input.challengeId, id: { not: solve.id } },
      select: { id: true, userId: true, teamId: true, points: true, penalty: true, scoring: true },
    });
    for (const old of earlier) {
      const delta = solveWorth(points, old.penalty) - solveWorth(old.points, old.penalty);
      if (delta === 0) continue;
      add(users, old.userId, delta, old.scoring ? delta : 0, false);
      add(teams, old.teamId, delta, old.scoring ? delta : 0, false);
      records.push({ userId: old.userId, teamId: old.teamId, solveId: old.id, reason: "decay", points: delta, leaderboard: old.scoring, timestamp: now });
    }
    await tx.solve.updateMany({ where: { challengeId: input.challengeId, id: { not: solve.id } }, data: { points } });
  }

  const userRows = await applyDeltas(tx, "users", users, now);
  const teamRows = await applyDeltas(tx, "teams", teams, now);
  await tx.scoreRecord.createMany({ data: records });
  const standing = (r: Moved): Standing => ({ id: r.id, points: r.leaderboard_points, last: r.last_score_at?.toISOString() ?? null, listed: r.listed });
  return {
    solveId: solve.id,
    points,
    penalty,
    firstBlood,
    solveCount: challenge.solve_count,
    rescored,
    teamName: teamRows.find((r) => r.id === input.teamId)?.name ?? "",
    challengeName: challenge.name,
    explanation: challenge.post_score_explanation,
    timestamp: now,
    standings: { teams: teamRows.map(standing), users: userRows.map(standing) },
  };
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
