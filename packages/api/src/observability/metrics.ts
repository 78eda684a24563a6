import { Counter, Histogram, Registry } from "prom-client";

/**
 * What the domain counts, for the server's /metrics (apps/server/src/metrics.ts merges this
 * registry into its own). Process-wide, as the hashing pool and the game are: a copy has one of
 * each. Workers import this package too, but never this registry, so their /metrics hold none of it.
 */
export const domainMetrics = new Registry();

/** A histogram of the domain's registry. */
function histogram(name: string, help: string, buckets: number[]): Histogram {
  return new Histogram({ name, help, buckets, registers: [domainMetrics] });
}

/** A counter of the domain's registry whose totals are kept elsewhere, by label: read at each scrape. */
function countedElsewhere(name: string, help: string, label: string, totals: Map<string, number>): Counter {
  return new Counter({
    name,
    help,
    labelNames: [label],
    registers: [domainMetrics],
    collect() {
      this.reset();
      for (const [value, count] of totals) this.inc({ [label]: value }, count);
    },
  });
}

const submissions = new Map<string, number>();

/**
 * Every flag submission's outcome: correct_flag, incorrect_flag, attempt_limit_reached, or the
 * error code it was refused with (already_solved_challenge, challenge_not_unlocked, throttled...),
 * a bounded set from the error catalogue; "error" for a failure that is no AppError (a 500).
 * A number per outcome, turned into the counter at each scrape: a wrong flag is the hottest
 * write, and prom-client's inc builds and hashes a label key at every call.
 */
export function countFlagSubmission(outcome: string): void {
  submissions.set(outcome, (submissions.get(outcome) ?? 0) + 1);
}

countedElsewhere("flagship_flag_submissions_total", "Flag submissions by outcome: correct_flag, incorrect_flag, attempt_limit_reached, or the error code that refused them.", "outcome", submissions);

export const firstBloods = new Counter({
  name: "flagship_first_bloods_total",
  help: "Challenges solved for the first time (first bloods), counted by the copy that recorded the solve.",
  registers: [domainMetrics],
});

/**
 * Correct flags are recorded in batches, one batch at a time per copy (scoring/solve-queue.ts): in a
 * first-blood burst, how long solves wait for their batch and how large the batches grow say
 * whether the burst is queueing.
 */
export const solveWait = histogram("flagship_solve_wait_seconds", "Time a correct flag waited for its batch of solves to start recording (0 for a lone solve).", [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]);

export const solveBatchSize = histogram("flagship_solve_batch_size", "Solves recorded together in one transaction (at most 100).", [1, 2, 5, 10, 25, 50, 100]);

/** From a few milliseconds (a free slot) to the longest HASH_MAX_WAIT_MS is likely set to. */
export const hashWait = histogram("flagship_password_hash_wait_seconds", "Time a password hash (login, sign-up, password change) waited for a slot in the hashing pool.", [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]);

export const hashRefused = new Counter({
  name: "flagship_password_hashes_refused_total",
  help: "Password hashes refused with 429 because the hashing pool's queue or expected wait was over its bound (HASH_QUEUE, HASH_MAX_WAIT_MS).",
  registers: [domainMetrics],
});
