import { AppError, type ErrorCode } from "@flagship/shared";
import { passwordStrength } from "@flagship/shared/password";
import os from "node:os";
import argon2 from "argon2";
import pLimit from "p-limit";
import { Gauge } from "prom-client";
import { domainMetrics, hashRefused, hashWait } from "../observability/metrics.ts";

/**
 * argon2 is meant to cost CPU, and runs on libuv's thread pool (4 threads), which file reads and
 * DNS share. When every player logs in at once, unbounded hashing would take every thread and
 * every core, and the other requests would starve. So hashing is a bounded pool: at most
 * `concurrency` hashes at once (defaultHashConcurrency: the cores, less one above two), the rest wait their turn.
 * A new hash is refused at once with 429 `throttled` (and a Retry-After) rather than queueing past
 * any reasonable wait: when the wait it expects, (hashes waiting + 1) / concurrency x the moving
 * average of one hash's duration, would exceed `maxWaitMs`, or when `maxWaiting` already wait.
 */
export interface HashingLimits {
  concurrency: number;
  maxWaiting: number;
  maxWaitMs: number;
}

/** What the pool runs; argon2 unless a test hands in a slower one. */
export interface Hasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** True when `hash` was made with other parameters than `hash` uses now (checked after a successful login). */
  needsRehash?(hash: string): boolean;
}

/**
 * OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. Stated explicitly because the library's own
 * defaults (64 MiB, t=3, 4 lanes) cost about seven times as much CPU per login, which on a small
 * server caps sign-ins at a handful a second when an event starts.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

const argon2Hasher: Hasher = {
  hash: (password) => argon2.hash(password, ARGON2_OPTIONS),
  verify: (hash, password) => argon2.verify(hash, password),
  needsRehash: (hash) => {
    try {
      return argon2.needsRehash(hash, ARGON2_OPTIONS);
    } catch {
      // Not an argon2 hash (an imported account's placeholder): nothing to upgrade.
      return false;
    }
  },
};

/**
 * How many hashes run at once unless HASH_CONCURRENCY says: one a core, less one on machines with
 * more than two, so that listings and submissions keep a core to themselves in a wave of logins.
 * On one or two cores all of them: a hash is one lane (one core for about 30 ms), and with one at
 * a time a two-core machine left a core idle in a wave of logins (about 40% more logins a second with
 * two), while the event loop still gets its share of the cores from the scheduler between hashes.
 */
export function defaultHashConcurrency(cores: number): number {
  return cores <= 2 ? Math.max(1, cores) : cores - 1;
}

export const DEFAULT_HASHING: HashingLimits & { hasher: Hasher } = {
  concurrency: defaultHashConcurrency(os.availableParallelism()),
  maxWaiting: 1000,
  maxWaitMs: 10_000,
  hasher: argon2Hasher,
};

/** Weight of the newest duration in the moving average (an exponential one: old hashes fade). */
const AVERAGE_WEIGHT = 0.2;

let limits: HashingLimits = DEFAULT_HASHING;
let hasher: Hasher = argon2Hasher;
let pool = pLimit(limits.concurrency);
let averageMs: number | undefined;

/** Sets the hashing pool's bounds (the server does, from HASH_CONCURRENCY, HASH_QUEUE and HASH_MAX_WAIT_MS). */
export function configurePasswordHashing(next: Partial<HashingLimits & { hasher: Hasher }>): void {
  const { hasher: nextHasher, ...nextLimits } = next;
  limits = { ...limits, ...nextLimits };
  pool = pLimit(limits.concurrency);
  // The average describes the hasher, not the bounds: only another hasher starts it afresh.
  if (nextHasher && nextHasher !== hasher) {
    hasher = nextHasher;
    averageMs = undefined;
  }
}

/** How many hashes run and wait right now, and the moving average of one hash (ms; null before the first). */
export function hashingLoad(): { active: number; waiting: number; averageMs: number | null } {
  return { active: pool.activeCount, waiting: pool.pendingCount, averageMs: averageMs ?? null };
}

new Gauge({
  name: "flagship_password_hashes",
  help: "Password hashes in the hashing pool right now, by state: running or waiting for a slot.",
  labelNames: ["state"] as const,
  registers: [domainMetrics],
  collect() {
    const load = hashingLoad();
    this.set({ state: "running" }, load.active);
    this.set({ state: "waiting" }, load.waiting);
  },
});

/**
 * The wait a hash started now expects before it runs, in ms: none while a slot is free, else the
 * hashes queued ahead of it and itself, shared by the slots. (The pool counts a hash as pending
 * until the next microtask even when a slot is free, so the queue is what exceeds the slots.)
 */
function expectedWaitMs(): number {
  const queued = pool.activeCount + pool.pendingCount - limits.concurrency;
  if (queued < 0) return 0;
  return ((queued + 1) / limits.concurrency) * (averageMs ?? 0);
}

function hashing<T>(work: (h: Hasher) => Promise<T>): Promise<T> {
  const waitMs = expectedWaitMs();
  if (pool.pendingCount >= limits.maxWaiting || waitMs > limits.maxWaitMs) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    hashRefused.inc();
    const message = `Too many sign-ins at once. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
    return Promise.reject(new AppError("throttled", { message, retryAfter: seconds }));
  }
  const current = hasher;
  const queued = performance.now();
  return pool(async () => {
    const started = performance.now();
    hashWait.observe((started - queued) / 1000);
    try {
      return await work(current);
    } finally {
      const took = performance.now() - started;
      averageMs = averageMs === undefined ? took : averageMs + AVERAGE_WEIGHT * (took - averageMs);
    }
  });
}

export function hashPassword(password: string): Promise<string> {
  return hashing((h) => h.hash(password));
}

// A real hash to verify against when the account does not exist, so a miss takes as long as a
// wrong password and response times do not reveal which usernames exist.
let decoy: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoy ??= hashPassword("flagship decoy password").catch((error: unknown) => {
      decoy = undefined;
      throw error;
    });
    const decoyHash = await decoy;
    await hashing((h) => h.verify(decoyHash, password).catch(() => false));
    return false;
  }
  try {
    return await hashing((h) => h.verify(hash, password));
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Not a hash at all (e.g. a deleted account's placeholder): nothing matches it.
    return false;
  }
}

/** True when a stored hash was made with other parameters than new hashes get (see ARGON2_OPTIONS). */
export function passwordNeedsRehash(hash: string): boolean {
  return hasher.needsRehash?.(hash) ?? false;
}

/** zxcvbn score >= 3, the same rule as the client's bar; the checker's advice is the field message. */
export function assertStrongPassword(password: string, userInputs: string[], field = "password"): void {
  const strength = passwordStrength(password, userInputs);
  if (!strength.strong) throw weakPassword(strength.feedback, field);
}

function weakPassword(feedback: string, field: string): AppError {
  const code: ErrorCode = "weak_password";
  const message = feedback ? `Password too weak: ${feedback}` : "Password too weak";
  return new AppError(code, { message, details: { [field]: [message] } });
}
