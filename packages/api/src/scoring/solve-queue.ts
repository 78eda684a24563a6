import type { Db } from "@flagship/db";
import { solveBatchSize, solveWait } from "../observability/metrics.ts";

/**
 * Correct solves in batches, one batch at a time per process: the group commit of solves. When
 * 200 teams send one challenge's flag at once, their solves serialise on the challenge's row lock
 * (locking.ts, step 3), and one transaction after another each paid for a lock, an insert, a
 * re-scoring and a commit; when 200 teams solve 200 challenges at once, 200 transactions of a
 * dozen statements each competed for the pool. Here a solve arriving while a batch is being
 * recorded waits in memory (holding no pool connection), and the next batch records every solve
 * that waited, in the order they came, of whatever challenges, in one transaction of a statement
 * a step (recordSolvesIn). A lone solve waits for nothing: it is a batch of one at once.
 *
 * A batch holds one solve a team and challenge (`key`): a team's second flag for a challenge waits
 * for the next batch, where it finds the first committed and is refused as a second transaction
 * would be. At most MAX_BATCH a batch. When a batch fails as a whole (another server copy
 * committed one of its solves first: a unique violation), its solves are recorded one at a time,
 * so one failure fails one answer. Across server copies the row locks still order the batches.
 */
export const MAX_BATCH = 100;

interface Waiting<E, R> {
  entry: E;
  /** When it arrived (performance.now()), for the wait it had. */
  at: number;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Lane<E, R> {
  waiting: Waiting<E, R>[];
  run: (entries: E[]) => Promise<R[]>;
}

const lanes = new WeakMap<Db, Lane<unknown, unknown>>();

export function solveInBatch<E, R>(db: Db, entry: E, key: (entry: E) => string, run: (entries: E[]) => Promise<R[]>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const existing = lanes.get(db) as Lane<E, R> | undefined;
    if (existing) {
      existing.waiting.push({ entry, at: performance.now(), resolve, reject });
      return;
    }
    const lane: Lane<E, R> = { waiting: [{ entry, at: performance.now(), resolve, reject }], run };
    lanes.set(db, lane as Lane<unknown, unknown>);
    void drain(lane, key, () => lanes.delete(db));
  });
}

/** Records batches until none waits; `done` runs in the same step as the last check, so nothing joins a finished lane. */
async function drain<E, R>(lane: Lane<E, R>, key: (entry: E) => string, done: () => void): Promise<void> {
  for (;;) {
    if (lane.waiting.length === 0) return void done();
    const batch: Waiting<E, R>[] = [];
    const keys = new Set<string>();
    lane.waiting = lane.waiting.filter((w) => {
      const k = key(w.entry);
      if (batch.length >= MAX_BATCH || keys.has(k)) return true;
      keys.add(k);
      batch.push(w);
      return false;
    });
    const started = performance.now();
    for (const w of batch) solveWait.observe((started - w.at) / 1000);
    solveBatchSize.observe(batch.length);
    try {
      const results = await lane.run(batch.map((w) => w.entry));
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        continue;
      }
      for (const w of batch) {
        try {
          w.resolve((await lane.run([w.entry]))[0]!);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  }
}
