import type { Db } from "@flagship/db";

/**
 * Correct solves of one challenge, one at a time per process. Solves of a challenge serialise on
 * its row lock anyway (locking.ts, step 3); queueing them here first means a burst of teams
 * sending one flag waits in memory, not holding pool connections while blocked on that lock. The
 * pool stays free for every other request, and no solve waits past the transaction's limits for a
 * connection or a lock. Across server copies the row lock still orders them, with at most one
 * waiter per challenge per copy.
 */
const queues = new WeakMap<Db, Map<number, Promise<void>>>();

export async function oneSolveAtATime<T>(db: Db, challengeId: number, work: () => Promise<T>): Promise<T> {
  let byChallenge = queues.get(db);
  if (!byChallenge) queues.set(db, (byChallenge = new Map()));
  const previous = byChallenge.get(challengeId) ?? Promise.resolve();
  const run = previous.then(work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  byChallenge.set(challengeId, tail);
  try {
    return await run;
  } finally {
    if (byChallenge.get(challengeId) === tail) byChallenge.delete(challengeId);
  }
}
