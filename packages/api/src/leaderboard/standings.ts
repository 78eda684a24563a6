/**
 * A team's or user's leaderboard totals as a solve's transaction left them, and whether the public
 * board lists them. The solve event carries them (beside its websocket payload, never sent to
 * clients), so every server copy moves its cached boards as soon as the event arrives.
 */
export interface Standing {
  id: number;
  points: number;
  /** The last tiebreaker solve, ISO. */
  last: string | null;
  listed: boolean;
}

/** Everyone a solve moved: the solver and their team, and on a re-scoring every earlier solver. */
export interface Standings {
  teams: Standing[];
  users: Standing[];
}
