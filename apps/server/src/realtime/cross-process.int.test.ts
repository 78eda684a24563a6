import { createTestWorld, createUser, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type ServerCopy, startServerCopy } from "../testing.ts";
import { openSocket } from "./ws-client.ts";

type Copy = ServerCopy;
const startCopy = (databaseUrl: string, redisUrl: string) => startServerCopy({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });

let world: TestWorld;
let copies: Copy[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  const redisUrl = testRedisUrl(inject("redisUrl"));
  copies = await Promise.all([startCopy(world.database.url, redisUrl), startCopy(world.database.url, redisUrl)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

describe("two server processes behind one Redis", () => {
  it("deliver an event published on one copy to the sockets of both", async () => {
    const [a, b] = copies as [Copy, Copy];
    const staff = await createUser(world, { isStaff: true });
    const onA = await openSocket(`ws://127.0.0.1:${a.port}/api/v2/ws/`);
    const onB = await openSocket(`ws://127.0.0.1:${b.port}/api/v2/ws/`);
    await onB.waitFor((e) => e.event_code === 0);

    const res = await fetch(`http://127.0.0.1:${a.port}/api/v2/announcements/`, {
      method: "POST",
      headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Across", body: "copies" }),
    });
    expect(res.status).toBe(201);
    expect((await onB.waitFor((e) => e.event_code === 5)).title).toBe("Across");
    expect((await onA.waitFor((e) => e.event_code === 5)).title).toBe("Across");
    // Exactly once per socket, not once per copy.
    await new Promise((r) => setTimeout(r, 200));
    expect(onB.events.filter((e) => e.event_code === 5)).toHaveLength(1);
    onA.close();
    onB.close();
  });

  it("see each other's config writes", async () => {
    const [a, b] = copies as [Copy, Copy];
    const staff = await createUser(world, { isStaff: true });
    await fetch(`http://127.0.0.1:${b.port}/api/v2/config/`);
    const set = await fetch(`http://127.0.0.1:${a.port}/api/v2/config/event_name/`, {
      method: "POST",
      headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" },
      body: JSON.stringify({ value: "Shared CTF" }),
    });
    expect(set.status).toBe(201);
    await new Promise((r) => setTimeout(r, 100));
    const read = (await (await fetch(`http://127.0.0.1:${b.port}/api/v2/config/event_name/`)).json()) as { d: string };
    expect(read.d).toBe("Shared CTF");
  });
});
