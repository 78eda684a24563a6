import { Counter, Histogram, Registry } from "prom-client";

/**
 * What the domain counts, for the server's /metrics (apps/server/src/metrics.ts merges this
 * registry into its own). Process-wide, as the hashing pool and the game are: a copy has one of
 * each. Workers import this package too, but never this registry, so their /metrics hold none of it.
 */
export const domainMetrics = new Registry();

/**
 * Every flag submission's outcome: correct_flag, incorrect_flag, attempt_limit_reached, or the
 * error code it was refused with (already_solved_challenge, challenge_not_unlocked, throttled...),
 * a bounded set from the error catalogue; "error" for a failure that is no AppError (a 500).
 */
export const flagSubmissions = new Counter({
  name: "flagship_flag_submissions_total",
  help: "Flag submissions by outcome: correct_flag, incorrect_flag, attempt_limit_reached, or the error code that refused them.",
  labelNames: ["outcome"] as const,
  registers: [domainMetrics],
});

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
export const solveWait = new Histogram({
  name: "flagship_solve_wait_seconds",
  help: "Time a correct flag waited for its batch of solves to start recording (0 for a lone solve).",
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [domainMetrics],
});

export const solveBatchSize = new Histogram({
  name: "flagship_solve_batch_size",
  help: "Solves recorded together in one transaction (at most 100).",
  buckets: [1, 2, 5, 10, 25, 50, 100],
  registers: [domainMetrics],
});

/** From a few milliseconds (a free slot) to the longest HASH_MAX_WAIT_MS is likely set to. */
export const hashWait = new Histogram({
  name: "flagship_password_hash_wait_seconds",
  help: "Time a password hash (login, sign-up, password change) waited for a slot in the hashing pool.",
  buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [domainMetrics],
});

export const hashRefused = new Counter({
  name: "flagship_password_hashes_refused_total",
  help: "Password hashes refused with 429 because the hashing pool's queue or expected wait was over its bound (HASH_QUEUE, HASH_MAX_WAIT_MS).",
  registers: [domainMetrics],
});
