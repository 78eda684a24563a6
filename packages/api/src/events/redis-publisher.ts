import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "../context.ts";
import { type AppEvent, type EventPublisher, InProcessPublisher, RESYNC_EVENT } from "./publisher.ts";

const CHANNEL = "flagship:events";

/**
 * Redis settings for calls made while a request waits: a command that Redis does not answer
 * quickly fails instead of stalling the request, and nothing queues up while it is unreachable.
 */
export const REDIS_REQUEST_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 500,
  connectTimeout: 1000,
  // Keep trying to reconnect, at most every 1 s, for as long as the process lives.
  retryStrategy: (times) => Math.min(50 * times, 1000),
};

/** How the publisher has fared: events sent through Redis, those that reached this copy only, and those lost. */
export interface PublisherStats {
  published: number;
  localOnly: number;
  dropped: number;
}

/**
 * Fan-out across server copies: every event goes through one Redis channel and comes back to
 * every copy (this one included), so each copy's websockets get every event exactly once.
 *
 * Redis is never in a request's way: `publish` returns at once and never fails. While Redis is
 * unreachable (or this copy's subscription is down), events go straight to this copy's own
 * subscribers, so its sockets and caches stay current, with a log line per outage and a count in
 * `stats`; other copies miss them. When the subscription comes back, every cache of this copy is
 * dropped (the resync event), since it may have missed the others' invalidations.
 */
export class RedisPublisher implements EventPublisher {
  private readonly local = new InProcessPublisher();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly ready: Promise<unknown>;
  private outage = false;
  private subscribedOnce = false;
  /** Events published in this turn of the event loop, sent together at its end. */
  private readonly outbox: AppEvent[] = [];
  readonly stats: PublisherStats = { published: 0, localOnly: 0, dropped: 0 };

  constructor(
    url: string,
    private readonly log?: Logger,
  ) {
    // Nobody waits for a publish, so it may take longer than a request's Redis call.
    this.pub = new Redis(url, { ...REDIS_REQUEST_OPTIONS, commandTimeout: 2000 });
    // The subscriber may queue its SUBSCRIBE until connected; ioredis subscribes again on reconnect.
    this.sub = new Redis(url, { ...REDIS_REQUEST_OPTIONS, enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined });
    this.pub.on("error", (error: Error) => this.noteOutage(error));
    this.sub.on("error", (error: Error) => this.noteOutage(error));
    this.sub.on("message", (_channel: string, message: string) => {
      let events: AppEvent | AppEvent[];
      try {
        events = JSON.parse(message) as AppEvent | AppEvent[];
      } catch {
        return;
      }
      // A copy's events of one turn of its event loop come as one message, in order.
      for (const event of Array.isArray(events) ? events : [events]) void this.local.publish(event);
    });
    this.sub.on("ready", () => {
      if (!this.subscribedOnce) return;
      if (this.outage) this.log?.warn({ localOnly: this.stats.localOnly }, "Redis is back: events travel between server copies again");
      this.outage = false;
      void this.local.publish({ kind: "internal", name: RESYNC_EVENT });
    });
    this.ready = this.sub.subscribe(CHANNEL).then(() => {
      this.subscribedOnce = true;
    });
  }

  /** Resolves once this copy is subscribed, so nothing published after it is missed. */
  async connected(): Promise<void> {
    await this.ready;
    if (this.pub.status !== "ready") await new Promise((resolve) => this.pub.once("ready", resolve));
  }

  /**
   * Events published in one turn of the event loop leave together, as one message (a JSON array
   * when there are several): under a stream of wrong flags answered by one group commit, one
   * PUBLISH for the lot instead of one each, on this copy and on every copy receiving them.
   */
  publish(event: AppEvent): Promise<void> {
    if (this.pub.status !== "ready" || this.sub.status !== "ready") {
      this.deliverLocally([event], null);
      return Promise.resolve();
    }
    this.outbox.push(event);
    if (this.outbox.length === 1) setImmediate(() => this.flush());
    return Promise.resolve();
  }

  private flush(): void {
    const events = this.outbox.splice(0);
    if (events.length === 0) return;
    if (this.pub.status !== "ready" || this.sub.status !== "ready") {
      this.deliverLocally(events, null);
      return;
    }
    this.pub.publish(CHANNEL, JSON.stringify(events.length === 1 ? events[0] : events)).then(
      () => {
        this.stats.published += events.length;
      },
      (error: unknown) => {
        // A command that timed out may still reach Redis (and come back to us): delivering them
        // here as well could show them twice, so they count as dropped. Any other failure means
        // they never left.
        if (error instanceof Error && error.message === "Command timed out") {
          this.stats.dropped += events.length;
          this.noteOutage(error);
        } else {
          this.deliverLocally(events, error);
        }
      },
    );
  }

  private deliverLocally(events: AppEvent[], error: unknown): void {
    this.stats.localOnly += events.length;
    this.noteOutage(error);
    for (const event of events) void this.local.publish(event);
  }

  private noteOutage(error: unknown): void {
    if (this.outage) return;
    this.outage = true;
    this.log?.warn({ err: error }, "Redis is unreachable: events reach this server copy's sockets only until it is back");
  }

  subscribe(listener: (event: AppEvent) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.flush();
    await this.local.close();
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
