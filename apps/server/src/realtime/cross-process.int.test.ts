import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createTestWorld, createUser, type TestWorld } from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { openSocket } from "./ws-client.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

interface Copy {
  port: number;
  child: ChildProcess;
}

async function startCopy(databaseUrl: string, redisUrl: string): Promise<Copy> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, THROTTLE: "off", LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/stats/version/`);
      if (res.ok) return { port, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("server copy did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}

let world: TestWorld;
let copies: Copy[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  const redisUrl = testRedisUrl(inject("redisUrl"));
  copies = await Promise.all([startCopy(world.database.url, redisUrl), startCopy(world.database.url, redisUrl)]);
}, 120_000);

afterAll(async () => {
  for (const copy of copies) copy.child.kill("SIGTERM");
  await Promise.all(copies.map((copy) => new Promise((r) => (copy.child.exitCode !== null ? r(null) : copy.child.once("exit", r)))));
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
