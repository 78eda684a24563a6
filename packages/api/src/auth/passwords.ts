import { AppError, type ErrorCode } from "@flagship/shared";
import { passwordStrength } from "@flagship/shared/password";
import os from "node:os";
import argon2 from "argon2";
import pLimit from "p-limit";

/**
 * argon2 is meant to cost CPU, and runs on libuv's thread pool (4 threads), which file reads and
 * DNS share. When every player logs in at once, unbounded hashing would take every thread and
 * every core, and the other requests would starve. So hashing is a bounded pool: at most
 * `concurrency` hashes at once (one fewer than the cores, at least one), the rest wait their turn,
 * and once `maxWaiting` are waiting a new one is refused at once with 429 `throttled` rather than
 * queueing past any reasonable wait.
 */
export interface HashingLimits {
  concurrency: number;
  maxWaiting: number;
}

export const DEFAULT_HASHING: HashingLimits = { concurrency: Math.max(1, os.availableParallelism() - 1), maxWaiting: 1000 };

let limits: HashingLimits = DEFAULT_HASHING;
let pool = pLimit(limits.concurrency);

/** Sets the hashing pool's bounds (the server does, from HASH_CONCURRENCY and HASH_QUEUE). */
export function configurePasswordHashing(next: Partial<HashingLimits>): void {
  limits = { ...limits, ...next };
  pool = pLimit(limits.concurrency);
}

/** How many hashes run and wait right now. */
export function hashingLoad(): { active: number; waiting: number } {
  return { active: pool.activeCount, waiting: pool.pendingCount };
}

function hashing<T>(work: () => Promise<T>): Promise<T> {
  if (pool.pendingCount >= limits.maxWaiting) {
    return Promise.reject(new AppError("throttled", { message: "Too many sign-ins at once. Try again in a few seconds." }));
  }
  return pool(work);
}

/** argon2id with the library's defaults (19 MiB, t=2), the OWASP baseline. */
export function hashPassword(password: string): Promise<string> {
  return hashing(() => argon2.hash(password, { type: argon2.argon2id }));
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
    await hashing(() => argon2.verify(decoyHash, password).catch(() => false));
    return false;
  }
  try {
    return await hashing(() => argon2.verify(hash, password));
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Not a hash at all (e.g. a deleted account's placeholder): nothing matches it.
    return false;
  }
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
