import { createTestWorld, sample, scrape, type TestWorld } from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { spawnWorkers } from "./workers.ts";

/** The workers `npm start` runs beside a server with METRICS_PORT serve theirs on the next ports. */

let world: TestWorld;
let workers: { stop(): Promise<void> } | undefined;
let metricsPort: number;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  world = await createTestWorld();
  metricsPort = await freePort();
  workers = spawnWorkers({ count: 1, databaseUrl: world.database.url, redisUrl: testRedisUrl(inject("redisUrl")), log: silent, metricsPort });
});
afterAll(async () => {
  await workers?.stop();
  await world.close();
});

describe("workers started by the server", () => {
  it("take the port after METRICS_PORT", async () => {
    const text = await vi.waitFor(() => scrape(`http://127.0.0.1:${metricsPort + 1}/metrics`), { timeout: 30_000, interval: 250 });
    expect(text).toContain("# TYPE flagship_queue_jobs gauge");
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  }, 40_000);
});
