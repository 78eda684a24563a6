import type { Db } from "@flagship/db";

/** What one team and user have done, for judging locks and filling in per-player fields. */
export interface PlayerState {
  solved: Set<number>;
  hintsUsed: Set<number>;
  votes: Map<number, boolean>;
}

/**
 * The team's solves and hint uses and the user's votes, in one round trip whatever the number of
 * challenges: the listing's only per-request query besides the token lookup.
 */
export async function loadPlayerState(db: Db, userId: number, teamId: number | null): Promise<PlayerState> {
  const rows = await db.$queryRaw<{ k: string; id: number; v: boolean | null }[]>`
    SELECT 's' AS k, challenge_id AS id, NULL::boolean AS v FROM solves WHERE team_id = ${teamId}
    UNION ALL SELECT 'h', hint_id, NULL FROM hint_uses WHERE team_id = ${teamId}
    UNION ALL SELECT 'v', challenge_id, positive FROM votes WHERE user_id = ${userId}`;
  const state: PlayerState = { solved: new Set(), hintsUsed: new Set(), votes: new Map() };
  for (const row of rows) {
    if (row.k === "s") state.solved.add(row.id);
    else if (row.k === "h") state.hintsUsed.add(row.id);
    else state.votes.set(row.id, row.v === true);
  }
  return state;
}
