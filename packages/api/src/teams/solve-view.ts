import { Prisma } from "@flagship/db";
import { solveValue } from "@flagship/shared";
import { releasedChallengeWhere } from "../challenges/access.ts";

/** What a solve list shows; challenge flags and team secrets are not reachable from here. */
export const SOLVE_VIEW_SELECT = {
  id: true,
  teamId: true,
  userId: true,
  challengeId: true,
  points: true,
  penalty: true,
  firstBlood: true,
  timestamp: true,
  challenge: { select: { name: true, categoryId: true } },
  user: { select: { username: true } },
  team: { select: { name: true } },
} satisfies Prisma.SolveSelect;

export type SolveRow = Prisma.SolveGetPayload<{ select: typeof SOLVE_VIEW_SELECT }>;

/** The contract's Solve: points are after the hint penalty; correct solves only. */
export interface SolveView {
  id: number;
  team: number;
  challenge: number;
  challenge_name: string;
  points: number;
  solved_by: number;
  solved_by_name: string;
  team_name: string;
  first_blood: boolean;
  timestamp: string;
}

/** What a solve shows as its points; while the scoreboard is frozen, its worth at the freeze (freeze.ts). */
export type SolveWorth = (solve: { challengeId: number; points: number; penalty: number }) => number;

export function toSolveView(row: SolveRow, worth: SolveWorth = solveValue): SolveView {
  return {
    id: row.id,
    team: row.teamId,
    challenge: row.challengeId,
    challenge_name: row.challenge.name,
    points: worth(row),
    solved_by: row.userId,
    solved_by_name: row.user.username,
    team_name: row.team.name,
    first_blood: row.firstBlood,
    timestamp: row.timestamp.toISOString(),
  };
}

/**
 * Which solves a reader may see: solves of hidden challenges would leak their names, so only
 * staff see those.
 */
export function solveVisibility(staff: boolean): Prisma.SolveWhereInput {
  return staff ? {} : { challenge: releasedChallengeWhere() };
}

/**
 * The solves matching `where` (over `solves s` joined with `challenges c`) as one JSON text column,
 * newest first, for views read in a single statement. Each solve is an array in SOLVE_COLUMNS'
 * order; the timestamp is in milliseconds, as the query builder reads it.
 */
export function solvesJsonSql(where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT COALESCE(json_agg(json_build_array(s.id, s.team_id, s.challenge_id, c.name, s.points, s.penalty, s.user_id, su.username::text, st.name::text, s.first_blood, floor(extract(epoch FROM s.timestamp) * 1000))
                     ORDER BY s.timestamp DESC, s.id DESC), '[]'::json)::text
      FROM solves s JOIN challenges c ON c.id = s.challenge_id JOIN users su ON su.id = s.user_id JOIN teams st ON st.id = s.team_id
     WHERE ${where})`;
}

type SolveColumns = [id: number, team: number, challenge: number, challengeName: string, points: number, penalty: number, userId: number, username: string, teamName: string, firstBlood: boolean, timestamp: number];

/** The solve views of a solvesJsonSql column. */
export function solveViewsFromJson(text: string, worth: SolveWorth = solveValue): SolveView[] {
  return (JSON.parse(text) as SolveColumns[]).map(([id, team, challenge, challengeName, points, penalty, userId, username, teamName, firstBlood, timestamp]) => ({
    id,
    team,
    challenge,
    challenge_name: challengeName,
    points: worth({ challengeId: challenge, points, penalty }),
    solved_by: userId,
    solved_by_name: username,
    team_name: teamName,
    first_blood: firstBlood,
    timestamp: new Date(timestamp).toISOString(),
  }));
}
