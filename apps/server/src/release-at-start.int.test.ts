import { type AppEvent, RedisPublisher } from "@flagship/api";
import { createCategory, createChallenge, createTestWorld, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type ServerCopy, startServerCopy } from "./testing.ts";

/**
 * A challenge's release that passed while no copy ran (all of them down for an upgrade over its
 * moment) is announced by the first copy to start, with no request from anyone: `npm start`'s
 * server reads the catalog as it starts. A second copy starting after it stays quiet.
 */
let world: TestWorld;
let bus: RedisPublisher;
const heard: AppEvent[] = [];
const copies: ServerCopy[] = [];
let released: number;
let later: number;

beforeAll(async () => {
  world = await createTestWorld();
  const category = await createCategory(world);
  // Released a minute ago, last written before that: no copy has announced it.
  released = (await createChallenge(world, category.id, { scheduledAt: new Date(Date.now() - 60_000) })).id;
  later = (await createChallenge(world, category.id, { scheduledAt: new Date(Date.now() + 3_600_000) })).id;
  await world.services.db.$executeRaw`UPDATE challenges SET updated_at = now() - interval '2 minutes' WHERE id IN (${released}, ${later})`;
  bus = new RedisPublisher(testRedisUrl(inject("redisUrl")));
  await bus.connected();
  bus.subscribe((event) => heard.push(event));
}, 60_000);
afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await bus.close();
  await world.close();
});

const announcements = (id: number) => heard.filter((e) => e.kind === "socket" && (e.payload as { event_code?: number; challenge_id?: number }).event_code === 6 && (e.payload as { challenge_id?: number }).challenge_id === id);
const lastWritten = async (id: number) => (await world.services.db.challenge.findUniqueOrThrow({ where: { id }, select: { updatedAt: true } })).updatedAt.getTime();

describe("a release that passed while every copy was down", () => {
  it("is announced once by the first copy to start, before anyone asks; the next copy stays quiet", async () => {
    const redis = { DATABASE_URL: world.database.url, REDIS_URL: testRedisUrl(inject("redisUrl")) };
    copies.push(await startServerCopy(redis));
    await expect.poll(() => announcements(released).length, { timeout: 15_000 }).toBe(1);
    const claimed = await lastWritten(released);
    expect(claimed).toBeGreaterThan(Date.now() - 60_000);

    copies.push(await startServerCopy(redis));
    // The second copy has read its catalog once its first request is answered.
    const res = await fetch(`${copies[1]!.url}/api/v2/challenges/categories/`);
    expect(res.status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(announcements(released)).toHaveLength(1);
    expect(await lastWritten(released)).toBe(claimed);
    // A release still to come is not announced early.
    expect(announcements(later)).toHaveLength(0);
  }, 120_000);
});
