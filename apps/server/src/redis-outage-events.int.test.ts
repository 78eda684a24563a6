import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { createTestWorld, createUser, type TestUser, type TestWorld } from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSocket } from "./realtime/ws-client.ts";
import { type ServerCopy, startServerCopy } from "./testing.ts";

/**
 * Two server copies on a real redis-server of this test's own: an announcement committed on one
 * copy while Redis is down reaches the sockets of the other once Redis is back, and the writing
 * copy's own sockets get it once.
 */

let redisPort: number;
let redis: ChildProcess | null = null;
let world: TestWorld;
let copies: ServerCopy[] = [];
let staff: TestUser;

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function startRedis(): Promise<void> {
  redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(redisPort))) {
    if (Date.now() > deadline) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopRedis(): Promise<void> {
  const child = redis;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  redis = null;
}

async function announce(copy: ServerCopy, title: string): Promise<number> {
  const res = await fetch(`${copy.url}/api/v2/announcements/`, {
    method: "POST",
    headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title, body: "posted while Redis was down" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { d: { id: number } }).d.id;
}

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  const env = { DATABASE_URL: world.database.url, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
  copies = await Promise.all([startServerCopy(env), startServerCopy(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await stopRedis();
  await world.close();
});

describe("events committed during a Redis outage", () => {
  it("reach the other copy's sockets once Redis is back, and the writing copy's sockets once", async () => {
    const [a, b] = copies as [ServerCopy, ServerCopy];
    const onA = await openSocket(`ws://127.0.0.1:${a.port}/api/v2/ws/`);
    const onB = await openSocket(`ws://127.0.0.1:${b.port}/api/v2/ws/`);
    await onA.waitFor((e) => e.event_code === 0);
    await onB.waitFor((e) => e.event_code === 0);

    await stopRedis();
    const during = [await announce(a, "During the outage 1"), await announce(a, "During the outage 2")];
    // The writing copy's own sockets hear them at once.
    for (const id of during) await onA.waitFor((e) => e.event_code === 5 && e.id === id, 5000);
    await new Promise((r) => setTimeout(r, 500));
    expect(onB.events.filter((e) => e.event_code === 5)).toEqual([]);

    await startRedis();
    for (const id of during) await onB.waitFor((e) => e.event_code === 5 && e.id === id, 15_000);
    // In the order they were made, and each once, on both copies.
    await new Promise((r) => setTimeout(r, 1000));
    expect(onB.events.filter((e) => e.event_code === 5).map((e) => e.id)).toEqual(during);
    expect(onA.events.filter((e) => e.event_code === 5).map((e) => e.id)).toEqual(during);

    // And events flow between the copies as usual afterwards, still each once.
    const after = await announce(a, "After the outage");
    await onB.waitFor((e) => e.event_code === 5 && e.id === after, 10_000);
    await onA.waitFor((e) => e.event_code === 5 && e.id === after, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(onB.events.filter((e) => e.event_code === 5).map((e) => e.id)).toEqual([...during, after]);
    expect(onA.events.filter((e) => e.event_code === 5).map((e) => e.id)).toEqual([...during, after]);
    onA.close();
    onB.close();
  }, 120_000);
});
