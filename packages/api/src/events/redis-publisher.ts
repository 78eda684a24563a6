import { randomUUID } from "node:crypto";
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
  /** Events that reached this copy only at first and were sent to the other copies once Redis was back. */
  replayed: number;
}

/**
 * Internal events between copies about missed events. They travel as ordinary internal events, so
 * a copy of an earlier version (during a rolling upgrade) passes them over like any signal it does
 * not know.
 */
const HELLO_EVENT = "events_hello";
const REPLAY_EVENT = "events_replay";
/** At most this many missed events are kept for replay (the oldest go first); a long outage loses the rest. */
const MAX_MISSED = 10_000;
/** Missed events are kept this long after Redis is back, for copies whose subscription returns later. */
const REPLAY_WINDOW_MS = 60_000;
/** Replayed events per message. */
const REPLAY_CHUNK = 200;
/** Replayed events already delivered here, remembered to deliver each once. */
const MAX_REMEMBERED = 4 * MAX_MISSED;
/** A message of this copy's that has not come back through its subscription after this long is given up as lost. */
const IN_FLIGHT_MS = 30_000;

interface MissedEvent {
  seq: number;
  event: AppEvent;
}

/** A message this copy published that has not yet come back to it through its subscription. */
interface InFlight {
  text: string;
  events: AppEvent[];
  at: number;
}

/**
 * Fan-out across server copies: every event goes through one Redis channel and comes back to
 * every copy (this one included), so each copy's websockets get every event exactly once.
 *
 * Redis is never in a request's way: `publish` returns at once and never fails. While Redis is
 * unreachable (or this copy's subscription is down), events go straight to this copy's own
 * subscribers, so its sockets and caches stay current, with a log line per outage and a count in
 * `stats`. When the subscription comes back, every cache of this copy is dropped (the resync event),
 * since it may have missed the others' invalidations.
 *
 * What was committed during an outage still reaches every copy's sockets after it: the events a
 * copy could only deliver to itself are kept in memory (at most MAX_MISSED, and only while they
 * could be missing somewhere) and replayed through Redis once both of its connections are back,
 * each with this copy's id and a sequence number so that every other copy delivers it once. A
 * copy whose own subscription came back says so (a hello, sent once it is subscribed again), and
 * every copy still holding missed events replays them, so a copy that reconnects after the writer
 * has replayed gets them too, for REPLAY_WINDOW_MS after the outage. While Redis answers, only
 * this copy's messages on their way are kept, until each comes back to it (a round trip). Replayed
 * events carry no view data (standings, attempt totals), and a copy that received some drops its
 * caches, which refill from PostgreSQL. At the moment Redis dies, a message it sent to some
 * subscribers and not to this copy's reaches those twice: at least once, rather than lost.
 */
export class RedisPublisher implements EventPublisher {
  private readonly local = new InProcessPublisher();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly ready: Promise<unknown>;
  private outage = false;
  private subscribedOnce = false;
  /**
   * True while this copy's subscription is in place, so what it publishes comes back to it. The
   * subscriber's connection reports ready before its SUBSCRIBE is answered again after an outage;
   * until then, events go to this copy's own subscribers (and are kept for the others), or this
   * copy would miss its own.
   */
  private joined = false;
  /** This copy's id in replays and hellos. */
  private readonly origin = randomUUID();
  /** Events delivered to this copy only, kept for the others (see the class comment). */
  private missed: MissedEvent[] = [];
  private missedSeq = 0;
  /** Set by an outage: once both connections are back, say hello and replay what was missed. */
  private rejoinPending = false;
  /** Replayed events of other copies already delivered here (`origin:seq`), oldest first. */
  private readonly delivered = new Set<string>();
  /** Events published in this turn of the event loop, sent together at its end. */
  private readonly outbox: AppEvent[] = [];
  /**
   * This copy's messages on their way through Redis, oldest first. Redis may answer a PUBLISH and
   * die before it writes the message to the subscribers (it writes the publisher's answer first),
   * so an answered PUBLISH is no proof that this copy heard it: what has not come back when the
   * subscription drops is delivered here and kept for the others, as during an outage.
   */
  private inFlight: InFlight[] = [];
  readonly stats: PublisherStats = { published: 0, localOnly: 0, dropped: 0, replayed: 0 };

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
    this.sub.on("close", () => {
      this.joined = false;
      this.rejoinPending = true;
      // Whatever of ours has not come back will not any more: delivered here and kept for the others.
      const lost = this.inFlight.splice(0);
      for (const entry of lost) this.deliverLocally(entry.events, null);
    });
    this.sub.on("message", (_channel: string, message: string) => {
      this.cameBack(message);
      let events: AppEvent | AppEvent[];
      try {
        events = JSON.parse(message) as AppEvent | AppEvent[];
      } catch {
        return;
      }
      // A copy's events of one turn of its event loop come as one message, in order.
      for (const event of Array.isArray(events) ? events : [events]) {
        if (event.kind === "internal" && event.name === HELLO_EVENT) {
          if (event.data?.origin !== this.origin) void this.replayMissed();
        } else if (event.kind === "internal" && event.name === REPLAY_EVENT) {
          this.receiveReplay(event.data as { origin: string; events: MissedEvent[] });
        } else {
          void this.local.publish(event);
        }
      }
    });
    this.sub.on("ready", () => {
      if (!this.subscribedOnce) return;
      if (this.outage) this.log?.warn({ localOnly: this.stats.localOnly }, "Redis is back: events travel between server copies again");
      this.outage = false;
      void this.local.publish({ kind: "internal", name: RESYNC_EVENT });
      void this.rejoin();
    });
    this.pub.on("ready", () => void this.rejoin());
    this.ready = this.sub.subscribe(CHANNEL).then(() => {
      this.subscribedOnce = true;
      this.joined = true;
    });
  }

  /** True while both connections to Redis are up, so events travel between the copies (for metrics). */
  get linked(): boolean {
    return this.joined && this.pub.status === "ready" && this.sub.status === "ready";
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
    if (!this.linked) {
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
    if (!this.linked) {
      this.deliverLocally(events, null);
      return;
    }
    const entry: InFlight = { text: JSON.stringify(events.length === 1 ? events[0] : events), events, at: Date.now() };
    this.giveUpStale(entry.at);
    this.inFlight.push(entry);
    this.pub.publish(CHANNEL, entry.text).then(
      () => {
        this.stats.published += events.length;
      },
      (error: unknown) => {
        // A command that timed out may still reach Redis and come back to us: it stays in flight
        // (delivered here once the subscription drops, given up after IN_FLIGHT_MS). Any other
        // failure means it never left.
        if (error instanceof Error && error.message === "Command timed out") this.noteOutage(error);
        else if (this.settle(entry)) this.deliverLocally(events, error);
      },
    );
  }

  /** A message came through the subscription: if it is one of ours, it is no longer in flight. */
  private cameBack(message: string): void {
    if (this.inFlight.length === 0) return;
    // Ours come back in the order they were sent, so it is nearly always the first. Another copy's
    // message of the same text counts as well: the same events were heard.
    const index = this.inFlight.findIndex((entry) => entry.text === message);
    if (index >= 0) this.inFlight.splice(index, 1);
  }

  /** Takes a message out of flight; false when it has already been dealt with. */
  private settle(entry: InFlight): boolean {
    const index = this.inFlight.indexOf(entry);
    if (index < 0) return false;
    this.inFlight.splice(index, 1);
    return true;
  }

  /** Messages long gone that never came back (Redis lost them while the subscription held): counted as dropped. */
  private giveUpStale(now: number): void {
    while (this.inFlight.length > 0 && now - this.inFlight[0]!.at > IN_FLIGHT_MS) this.stats.dropped += this.inFlight.shift()!.events.length;
  }

  private deliverLocally(events: AppEvent[], error: unknown): void {
    this.stats.localOnly += events.length;
    // Connected but not yet subscribed again is the end of an outage, not a new one.
    if (error !== null || this.pub.status !== "ready" || this.sub.status !== "ready") this.noteOutage(error);
    for (const event of events) {
      void this.local.publish(event);
      this.missed.push({ seq: ++this.missedSeq, event: withoutViewData(event) });
    }
    if (this.missed.length > MAX_MISSED) this.stats.dropped += this.missed.splice(0, this.missed.length - MAX_MISSED).length;
  }

  /**
   * Once both connections are back after an outage: subscribed again (our own SUBSCRIBE answered,
   * so nothing sent after it is missed), ask every other copy for what it could not send (hello),
   * and send what this copy could not.
   */
  private async rejoin(): Promise<void> {
    if (!this.rejoinPending || !this.subscribedOnce || this.pub.status !== "ready" || this.sub.status !== "ready") return;
    this.rejoinPending = false;
    try {
      await this.sub.subscribe(CHANNEL);
      // Subscribed again: from here on, what this copy publishes comes back to it.
      this.joined = this.sub.status === "ready";
      await this.pub.publish(CHANNEL, JSON.stringify({ kind: "internal", name: HELLO_EVENT, data: { origin: this.origin } } satisfies AppEvent));
      const last = this.missedSeq;
      if (await this.replayMissed()) {
        // Kept a while for copies whose subscription comes back later (they say hello).
        setTimeout(() => {
          this.missed = this.missed.filter((missed) => missed.seq > last);
        }, REPLAY_WINDOW_MS).unref();
      }
    } catch (error) {
      this.noteOutage(error);
    }
  }

  /** Sends every missed event to the other copies; false when Redis failed meanwhile. */
  private async replayMissed(): Promise<boolean> {
    const missed = this.missed;
    try {
      for (let i = 0; i < missed.length; i += REPLAY_CHUNK) {
        const events = missed.slice(i, i + REPLAY_CHUNK);
        const replay: AppEvent = { kind: "internal", name: REPLAY_EVENT, data: { origin: this.origin, events } };
        await this.pub.publish(CHANNEL, JSON.stringify(replay));
      }
    } catch (error) {
      this.noteOutage(error);
      return false;
    }
    if (missed.length > 0) {
      this.stats.replayed += missed.length;
      this.log?.info({ events: missed.length }, "sent the events of the Redis outage to the other server copies");
    }
    return true;
  }

  private receiveReplay(replay: { origin: string; events: MissedEvent[] } | undefined): void {
    // This copy's own: its sockets got them when they happened.
    if (!replay || replay.origin === this.origin || !Array.isArray(replay.events)) return;
    let fresh = 0;
    for (const { seq, event } of replay.events) {
      const key = `${replay.origin}:${seq}`;
      if (this.delivered.has(key)) continue;
      this.delivered.add(key);
      if (this.delivered.size > MAX_REMEMBERED) this.delivered.delete(this.delivered.values().next().value!);
      fresh++;
      void this.local.publish(event);
    }
    // Replayed events carry no view data: caches refill from the database instead.
    if (fresh > 0) void this.local.publish({ kind: "internal", name: RESYNC_EVENT });
  }

  private noteOutage(error: unknown): void {
    this.rejoinPending = true;
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

/**
 * A socket event without what only the writing copy's own views use (the leaderboard's standings,
 * the attempt totals): replayed late, it could put older figures over newer ones.
 */
function withoutViewData(event: AppEvent): AppEvent {
  if (event.kind !== "socket") return event;
  const { standings: _standings, attempts: _attempts, ...rest } = event;
  return rest;
}
