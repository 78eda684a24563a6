import { Redis } from "ioredis";
import { type AppEvent, type EventPublisher, InProcessPublisher } from "./publisher.ts";

const CHANNEL = "flagship:events";

/**
 * Fan-out across server copies: every event goes through one Redis channel and comes back to
 * every copy (this one included), so each copy's websockets get every event exactly once.
 */
export class RedisPublisher implements EventPublisher {
  private readonly local = new InProcessPublisher();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly ready: Promise<unknown>;

  constructor(url: string) {
    this.pub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null });
    this.sub.on("message", (_channel: string, message: string) => {
      let event: AppEvent;
      try {
        event = JSON.parse(message) as AppEvent;
      } catch {
        return;
      }
      void this.local.publish(event);
    });
    this.ready = this.sub.subscribe(CHANNEL);
  }

  /** Resolves once this copy is subscribed, so nothing published after it is missed. */
  async connected(): Promise<void> {
    await this.ready;
  }

  async publish(event: AppEvent): Promise<void> {
    await this.pub.publish(CHANNEL, JSON.stringify(event));
  }

  subscribe(listener: (event: AppEvent) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.local.close();
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
