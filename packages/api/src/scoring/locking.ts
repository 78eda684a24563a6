import { isTransactionConflict } from "@flagship/db";

/**
 * # Lock order
 *
 * Every write path that touches a team's attempts, a challenge and the team's or its members'
 * totals takes its row locks in this one order, so no two of them can wait on each other in a
 * cycle:
 *
 * 1. the team's attempt counter for the challenge (`attempt_counters`, the conditional upsert);
 * 2. the submitting user's row (`users`, checked against the team it submits for);
 * 3. the challenge row (`challenges`: solve count, first blood, current score, votes);
 * 4. new rows that point at those (`solves`, `incorrect_attempts`, `score_records`, `votes`);
 * 5. user rows whose totals change, in id order, then team rows, in id order;
 * 6. the wrong-flag totals (`team_attempt_totals` in team id order, then `user_attempt_totals` in
 *    user id order), raised by the statement that records wrong flags (attempt-writer.ts). No
 *    other path locks these rows, except the deletion of attempts (a cascade from a staff
 *    deletion), whose trigger lowers them.
 *
 * A batch of solves (record-solve.ts, recordSolvesIn) takes each step for all its solves before the
 * next, the rows of a step in id order (attempt counters in team, then challenge, order): a single
 * path's locks are a batch of one, so batches and single paths agree.
 *
 * Team membership changes (join, leave, staff moves) lock the user row before the team row, which
 * agrees with 2 before 5.
 *
 * A hint use and a solve of the same challenge meet at step 3: the hint use takes the challenge row
 * `FOR SHARE` before inserting its `hint_uses` row (step 4), and the solve reads the team's hint
 * penalties only once it holds that row `FOR NO KEY UPDATE`, in a statement after the lock. The two
 * locks conflict, so one waits for the other's commit: a use committed first is visible to the
 * solve's read and charged; a use that waited commits after the solve and is not. (Without it, a
 * use committed between the solve's read and its commit was silently free.) `FOR SHARE` lets hint
 * uses of one challenge run side by side; they hold it for one insert.
 *
 * Locks on existing rows are `FOR NO KEY UPDATE` (what a plain UPDATE of non-key columns takes),
 * never `FOR UPDATE`: inserting a row with a foreign key takes `FOR KEY SHARE` on the row it points
 * at, which `FOR UPDATE` blocks but `FOR NO KEY UPDATE` does not. A teammate's wrong submission
 * (an `incorrect_attempts` row pointing at the team, the user and the challenge) therefore never
 * waits for a solve in progress, and a solve never waits for it.
 *
 * PostgreSQL may still report a deadlock or a serialization failure that no order rules out (an
 * index page, a future path); `retryTransaction` runs such a transaction again, a few times.
 */

/** How many times a transaction that lost a deadlock or serialization race is tried in all. */
export const TRANSACTION_TRIES = 5;

/**
 * Runs `transaction` (a whole database transaction, started afresh on every try) and runs it again
 * when PostgreSQL aborted it with 40P01 (deadlock) or 40001 (serialization failure), up to
 * TRANSACTION_TRIES times, after a short random pause that lets the winner finish.
 */
export async function retryTransaction<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= TRANSACTION_TRIES || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
