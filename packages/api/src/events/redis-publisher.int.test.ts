import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import net from "node:net";
import { freePort } from "@flagship/db";
import { testRedisUrl } from "@flagship/db/testing";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { AppEvent } from "./publisher.ts";
import { RedisPublisher } from "./redis-publisher.ts";

const url = testRedisUrl(inject("redisUrl"));
const closing: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const close of closing) await close();
});

/** A plain subscriber to the events channel: what actually travels through Redis. */
async function wire(marker: string): Promise<unknown[]> {
  const raw = new Redis(url);
  closing.push(() => raw.disconnect());
  const messages: unknown[] = [];
  raw.on("message", (_channel: string, message: string) => {
    if (message.includes(marker)) messages.push(JSON.parse(message));
  });
  await raw.subscribe("flagship:events");
  return messages;
}

async function publisher(): Promise<RedisPublisher> {
  const p = new RedisPublisher(url);
  closing.push(() => p.close());
  await p.connected();
  return p;
}

const event = (marker: string, n: number): AppEvent => ({ kind: "internal", name: "test.batch", data: { marker, n } });

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe("events across server copies", () => {
  it("sends the events of one turn of the event loop as one message, delivered to every copy in order", async () => {
    const marker = randomUUID();
    const messages = await wire(marker);
    const a = await publisher();
    const b = await publisher();
    const seen = { a: [] as number[], b: [] as number[] };
    for (const [name, copy] of [["a", a], ["b", b]] as const) {
      copy.subscribe((e) => {
        if (e.kind === "internal" && e.data?.marker === marker) seen[name].push(e.data.n as number);
      });
    }

    for (let n = 0; n < 5; n++) void a.publish(event(marker, n));
    await until(() => seen.b.length === 5 && seen.a.length === 5);
    // Both copies, the sender included, get them once each and in order: from one PUBLISH.
    expect(seen).toEqual({ a: [0, 1, 2, 3, 4], b: [0, 1, 2, 3, 4] });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toHaveLength(5);
    expect(a.stats.published).toBe(5);

    // A lone event travels as itself, as a copy of an earlier version sends and expects it.
    void b.publish(event(marker, 5));
    await until(() => seen.a.length === 6);
    expect(messages[1]).toEqual(event(marker, 5));
    expect(seen.a).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps each copy's order when events are published over several turns and from both copies", async () => {
    const marker = randomUUID();
    const a = await publisher();
    const b = await publisher();
    const fromA: number[] = [];
    const fromB: number[] = [];
    b.subscribe((e) => {
      if (e.kind !== "internal" || e.data?.marker !== marker) return;
      const n = e.data.n as number;
      (n < 1000 ? fromA : fromB).push(n);
    });
    for (let turn = 0; turn < 20; turn++) {
      for (let i = 0; i < 10; i++) {
        void a.publish(event(marker, turn * 10 + i));
        void b.publish(event(marker, 1000 + turn * 10 + i));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => fromA.length === 200 && fromB.length === 200);
    expect(fromA).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(fromB).toEqual(Array.from({ length: 200 }, (_, i) => 1000 + i));
  });
});

/** A redis-server of the test's own on `port`, that the test stops and starts. */
async function ownRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  closing.push(() => void child.kill("SIGKILL"));
  for (let i = 0; i < 200 && !(await accepts(port)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return child;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A TCP relay to Redis for one copy, which the test opens and shuts: that copy's link to Redis
 * comes back only when the test says so, later than the others'.
 */
function relay(listenPort: number, redisPort: number): { open(): Promise<void>; shut(): Promise<void>; muteSubscribers(): void } {
  let server: net.Server | null = null;
  const links = new Set<net.Socket>();
  /** While set, what Redis sends to a subscribing connection is swallowed (the publisher's answers still pass). */
  let muted = false;
  const relayApi = {
    async open() {
      server = net.createServer((client) => {
        const upstream = net.connect(redisPort, "127.0.0.1");
        for (const end of [client, upstream]) {
          links.add(end);
          end.on("error", () => {});
          end.on("close", () => {
            links.delete(end);
            client.destroy();
            upstream.destroy();
          });
        }
        let subscriber = false;
        client.on("data", (chunk: Buffer) => {
          if (/subscribe/i.test(chunk.toString("latin1"))) subscriber = true;
          upstream.write(chunk);
        });
        upstream.on("data", (chunk: Buffer) => {
          if (!(muted && subscriber)) client.write(chunk);
        });
      });
      await new Promise<void>((resolve) => server!.listen(listenPort, "127.0.0.1", resolve));
    },
    muteSubscribers() {
      muted = true;
    },
    async shut() {
      muted = false;
      for (const end of links) end.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    },
  };
  closing.push(() => relayApi.shut());
  return relayApi;
}

describe("events during a Redis outage", () => {
  it("are replayed to a copy whose link to Redis comes back after the writer has replayed them", async () => {
    const redisPort = await freePort();
    const relayPort = await freePort();
    let redis = await ownRedis(redisPort);
    const link = relay(relayPort, redisPort);
    await link.open();
    const writer = new RedisPublisher(`redis://127.0.0.1:${redisPort}`);
    const late = new RedisPublisher(`redis://127.0.0.1:${relayPort}`);
    closing.push(() => writer.close(), () => late.close());
    await writer.connected();
    await late.connected();
    const marker = randomUUID();
    const heard: number[] = [];
    let resyncs = 0;
    late.subscribe((e) => {
      if (e.kind === "internal" && e.data?.marker === marker) heard.push(e.data.n as number);
      if (e.kind === "internal" && e.name === "events_resync") resyncs++;
    });

    redis.kill("SIGKILL");
    await link.shut();
    // Published until the writer knows Redis is gone: those events reach its own subscribers only.
    for (let n = 0; writer.stats.localOnly === 0 && n < 100; n++) {
      void writer.publish(event(marker, n));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const missed = writer.stats.localOnly;
    expect(missed).toBeGreaterThan(0);

    redis = await ownRedis(redisPort);
    // The writer is back and replays at once; the late copy is still cut off and misses that.
    await until(() => writer.stats.replayed >= missed);
    expect(heard).toEqual([]);

    const resyncsBefore = resyncs;
    await link.open();
    // Back, it says hello once subscribed, and the writer replays to it: each event once, in order.
    for (let i = 0; i < 500 && heard.length < missed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard).toHaveLength(missed);
    expect(heard).toEqual([...heard].sort((x, y) => x - y));
    expect(new Set(heard).size).toBe(missed);
    // Its caches were dropped, to refill from the database.
    expect(resyncs).toBeGreaterThan(resyncsBefore);
  }, 60_000);
});

describe("a message Redis answered but never sent back", () => {
  it("reaches this copy's own subscribers once the subscription drops, and the others after", async () => {
    const redisPort = await freePort();
    const relayPort = await freePort();
    await ownRedis(redisPort);
    const link = relay(relayPort, redisPort);
    await link.open();
    const writer = new RedisPublisher(`redis://127.0.0.1:${relayPort}`);
    const other = new RedisPublisher(`redis://127.0.0.1:${redisPort}`);
    closing.push(() => writer.close(), () => other.close());
    await writer.connected();
    await other.connected();
    const marker = randomUUID();
    const own: number[] = [];
    const theirs: number[] = [];
    writer.subscribe((e) => {
      if (e.kind === "internal" && e.data?.marker === marker) own.push(e.data.n as number);
    });
    other.subscribe((e) => {
      if (e.kind === "internal" && e.data?.marker === marker) theirs.push(e.data.n as number);
    });

    void writer.publish(event(marker, 0));
    await until(() => own.length === 1 && theirs.length === 1);
    // Redis answers the writer's PUBLISH, and dies before the writer's subscription hears it back.
    link.muteSubscribers();
    void writer.publish(event(marker, 1));
    await until(() => writer.stats.published === 2 && theirs.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(own).toEqual([0]);
    await link.shut();
    // The writer delivers it itself: its sockets are never short of what it committed.
    await until(() => own.length === 2);
    expect(own).toEqual([0, 1]);

    // Back, it replays what it delivered alone: at least once for the others (here twice), never lost.
    await link.open();
    await until(() => writer.stats.replayed >= 1 && theirs.length === 3);
    void writer.publish(event(marker, 2));
    await until(() => own.length === 3 && theirs.length === 4);
    expect(own).toEqual([0, 1, 2]);
    expect(theirs).toEqual([0, 1, 1, 2]);
    expect(writer.stats.dropped).toBe(0);
  }, 60_000);
});
