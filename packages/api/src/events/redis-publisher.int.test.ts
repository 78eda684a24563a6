import { randomUUID } from "node:crypto";
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
