import type { Prisma } from "@flagship/db";
import { solveValue } from "@flagship/shared";

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

export function toSolveView(row: SolveRow): SolveView {
  return {
    id: row.id,
    team: row.teamId,
    challenge: row.challengeId,
    challenge_name: row.challenge.name,
    points: solveValue(row),
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
  return staff ? {} : { challenge: { hidden: false } };
}
