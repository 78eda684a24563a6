import { AppError, parseThrottleRates, type ThrottleScope } from "@flagship/shared";
import { Redis } from "ioredis";
import type { Context, Logger } from "../context.ts";
import { REDIS_REQUEST_OPTIONS } from "../events/redis-publisher.ts";

/** Counts hits in fixed windows. `hit` returns the count in the current window, this hit included. */
export interface ThrottleStore {
  hit(key: string, windowSeconds: number): Promise<number>;
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
    await this.firstReady;
    if (this.redis.status === "ready") {
      try {
        const results = await this.redis.multi().incr(key).expire(key, windowSeconds, "NX").exec();
        const count = results?.[0]?.[1];
        return typeof count === "number" ? count : Number(count);
      } catch (error) {
        this.noteOutage(error);
      }
    } else {
      this.noteOutage(null);
    }
    return this.fallback.hit(key, windowSeconds);
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

  async close(): Promise<void> {
    await this.options.store.close();
  }
}

export function createThrottle(options: { enabled: boolean; redisUrl?: string | undefined; rates?: string | undefined; log?: Logger }): Throttle {
  const store = options.enabled && options.redisUrl ? new RedisThrottleStore(options.redisUrl, options.log) : new MemoryThrottleStore();
  return new Throttle({ store, enabled: options.enabled, rates: options.rates });
}
