import { AppError, parseThrottleRates, type ThrottleScope } from "@flagship/shared";
import { Redis } from "ioredis";
import type { Context, Logger } from "../context.ts";
import { REDIS_REQUEST_OPTIONS } from "../events/redis-publisher.ts";

/**
 * Counts hits in fixed windows and keeps timed blocks. `hit` returns the count in the current
 * window, this hit included; `unhit` takes one back; `block` starts a block of `seconds`;
 * `blockedFor` is the seconds a block has left (0 when there is none).
 */
export interface ThrottleStore {
  hit(key: string, windowSeconds: number): Promise<number>;
  unhit(key: string): Promise<void>;
  block(key: string, seconds: number): Promise<void>;
  blockedFor(key: string): Promise<number>;
  close(): Promise<void>;
}

/** One process alone: counters in memory, swept as their windows end. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private lastSweep = Date.now();

  async hit(key: string, windowSeconds: number): Promise<number> {
    const now = Date.now();
    if (now - this.lastSweep > 60_000) this.sweep(now);
    const entry = this.counters.get(key);
    if (!entry || entry.expiresAt <= now) {
      this.counters.set(key, { count: 1, expiresAt: now + windowSeconds * 1000 });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  async unhit(key: string): Promise<void> {
    const entry = this.counters.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  async block(key: string, seconds: number): Promise<void> {
    this.counters.set(key, { count: 1, expiresAt: Date.now() + seconds * 1000 });
  }

  async blockedFor(key: string): Promise<number> {
    const entry = this.counters.get(key);
    const left = entry ? entry.expiresAt - Date.now() : 0;
    return left > 0 ? left / 1000 : 0;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(key);
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}

/** How long hits wait for the very first connection before counting alone. */
const FIRST_CONNECT_WAIT_MS = 2000;

/**
 * Shared by every server copy: INCR is atomic in Redis, so concurrent hits on different copies
 * are all counted; the key expires with its window. While Redis does not answer (within a short
 * timeout), this process counts on its own, so a Redis outage never fails or stalls a request:
 * limits then hold per copy instead of across copies.
 */
export class RedisThrottleStore implements ThrottleStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryThrottleStore();
  private outage = false;
  /** Until the first connection (at start-up), hits wait for it rather than count alone. */
  private readonly firstReady: Promise<void>;

  constructor(
    url: string,
    private readonly log?: Logger,
  ) {
    this.redis = new Redis(url, REDIS_REQUEST_OPTIONS);
    this.firstReady = new Promise<void>((resolve) => {
      this.redis.once("ready", () => resolve());
      setTimeout(resolve, FIRST_CONNECT_WAIT_MS).unref();
    });
    this.redis.on("error", (error: Error) => this.noteOutage(error));
    this.redis.on("ready", () => {
      if (this.outage) this.log?.warn({}, "Redis is back: throttles are shared between server copies again");
      this.outage = false;
    });
  }

  async hit(key: string, windowSeconds: number): Promise<number> {
    return this.shared(
      async () => {
        const results = await this.redis.multi().incr(key).expire(key, windowSeconds, "NX").exec();
        const count = results?.[0]?.[1];
        return typeof count === "number" ? count : Number(count);
      },
      () => this.fallback.hit(key, windowSeconds),
    );
  }

  async unhit(key: string): Promise<void> {
    await this.shared(
      async () => void (await this.redis.decr(key)),
      () => this.fallback.unhit(key),
    );
  }

  async block(key: string, seconds: number): Promise<void> {
    await this.shared(
      async () => void (await this.redis.set(key, "1", "PX", Math.ceil(seconds * 1000))),
      () => this.fallback.block(key, seconds),
    );
  }

  async blockedFor(key: string): Promise<number> {
    return this.shared(
      async () => Math.max(0, await this.redis.pttl(key)) / 1000,
      () => this.fallback.blockedFor(key),
    );
  }

  /** Runs `work` on Redis while it answers, else `alone` in this process (as `hit` does). */
  private async shared<T>(work: () => Promise<T>, alone: () => Promise<T>): Promise<T> {
    await this.firstReady;
    if (this.redis.status === "ready") {
      try {
        return await work();
      } catch (error) {
        this.noteOutage(error);
      }
    } else {
      this.noteOutage(null);
    }
    return alone();
  }

  private noteOutage(error: unknown): void {
    if (this.outage) return;
    this.outage = true;
    this.log?.warn({ err: error }, "Redis is unreachable: throttles count per server copy until it is back");
  }

  async close(): Promise<void> {
    await this.fallback.close();
    this.redis.disconnect();
  }
}

export interface ThrottleOptions {
  store: ThrottleStore;
  /** False only in test environments (`THROTTLE=off`). */
  enabled: boolean;
  /** `THROTTLE_RATES`, e.g. "login=20/min", over the contract's defaults. */
  rates?: string | undefined;
}

/** Rate limits per user, or per IP when anonymous; staff are exempt. Over the limit is `throttled`. */
export class Throttle {
  private readonly rates: ReturnType<typeof parseThrottleRates>;

  constructor(private readonly options: ThrottleOptions) {
    this.rates = parseThrottleRates(options.rates);
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  async check(ctx: Pick<Context, "actor" | "ip">, scope: ThrottleScope): Promise<void> {
    if (!this.options.enabled || ctx.actor?.isStaff) return;
    const rate = this.rates[scope];
    if (!rate) return;
    const who = ctx.actor ? `u:${ctx.actor.id}` : `ip:${ctx.ip ?? "unknown"}`;
    // Fixed windows aligned to the clock, so every copy agrees on the current window's key.
    const window = Math.floor(Date.now() / 1000 / rate.windowSeconds);
    const count = await this.options.store.hit(`throttle:${scope}:${who}:${window}`, rate.windowSeconds);
    if (count > rate.limit) throw new AppError("throttled");
  }

  /**
   * Guards a guess at a secret (a team's password, an account's password or 2FA code), counted for
   * each of `subjects` (e.g. the account and the team): the contract's rate of wrong guesses per
   * window, then a block that doubles with each block earned within a day (from one window up to
   * `maxBlockSeconds`, an hour unless said otherwise), during which every guess at the subject,
   * right or wrong, is `throttled` with the seconds left as Retry-After. The guess is counted
   * before the secret is compared, so a burst of parallel guesses cannot all slip in before the
   * first failure is recorded; a right guess takes its count back with `right()`. `onBlock` is
   * told of each block as it starts.
   */
  async guess(ctx: Pick<Context, "actor" | "ip">, scope: ThrottleScope, subjects: string[], options: GuessOptions = {}): Promise<{ right(): Promise<void> }> {
    const rate = this.rates[scope];
    if (!this.options.enabled || ctx.actor?.isStaff || !rate) return { right: async () => {} };
    const { onBlock, maxBlockSeconds = MAX_BLOCK_SECONDS } = options;
    const store = this.options.store;
    const base = (subject: string) => `throttle:${scope}:${subject}`;
    const waits = await Promise.all(subjects.map((subject) => store.blockedFor(`${base(subject)}:blocked`)));
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw guessesThrottled(wait);

    const window = Math.floor(Date.now() / 1000 / rate.windowSeconds);
    const keys = subjects.map((subject) => `${base(subject)}:${window}`);
    const counts = await Promise.all(keys.map((key) => store.hit(key, rate.windowSeconds)));
    let longest = 0;
    for (const [i, subject] of subjects.entries()) {
      // Only the guess that first goes over starts a block; the others in the same burst join it.
      if (counts[i]! <= rate.limit) continue;
      if (counts[i] === rate.limit + 1) {
        const blocks = await store.hit(`${base(subject)}:blocks`, BLOCK_MEMORY_SECONDS);
        const seconds = Math.min(maxBlockSeconds, rate.windowSeconds * 2 ** (blocks - 1));
        await store.block(`${base(subject)}:blocked`, seconds);
        await onBlock?.({ subject, failures: rate.limit, seconds, blocks });
        longest = Math.max(longest, seconds);
      } else {
        longest = Math.max(longest, (await store.blockedFor(`${base(subject)}:blocked`)) || rate.windowSeconds);
      }
    }
    if (longest > 0) throw guessesThrottled(longest);
    return { right: async () => void (await Promise.all(keys.map((key) => store.unhit(key)))) };
  }

  async close(): Promise<void> {
    await this.options.store.close();
  }
}

export interface GuessOptions {
  /** Told of each block as it starts, e.g. to record it in the audit log. */
  onBlock?: (block: GuessBlock) => Promise<void>;
  /** The longest one block lasts, for secrets whose rightful owner must not wait as long as an hour. */
  maxBlockSeconds?: number;
}

/** A block on guesses, as it starts: whose, after how many wrong guesses, for how long, the how-manieth in a day. */
export interface GuessBlock {
  subject: string;
  failures: number;
  seconds: number;
  blocks: number;
}

/** Blocks on guesses double while the first of them is less than a day old... */
const BLOCK_MEMORY_SECONDS = 86_400;
/** ...up to an hour each. */
const MAX_BLOCK_SECONDS = 3600;

function guessesThrottled(seconds: number): AppError {
  const wait = Math.max(1, Math.ceil(seconds));
  return new AppError("throttled", { message: `Too many wrong guesses. Try again in ${wait} second${wait === 1 ? "" : "s"}.`, retryAfter: wait });
}

export function createThrottle(options: { enabled: boolean; redisUrl?: string | undefined; rates?: string | undefined; log?: Logger }): Throttle {
  const store = options.enabled && options.redisUrl ? new RedisThrottleStore(options.redisUrl, options.log) : new MemoryThrottleStore();
  return new Throttle({ store, enabled: options.enabled, rates: options.rates });
}
