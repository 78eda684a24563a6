import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createTestWorld, sample, scrape, type TestWorld, uniqueName } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/**
 * Workers sharing one host's network (the compose stack test runs them so) cannot all take the
 * same METRICS_PORT. With METRICS_PORT=0 each takes a free port the system picks, at the moment it
 * listens: workers started at the same moment never pick the same one (a port found free, then
 * listened on by the worker later, could be taken by another in between), and the log names it.
 */

const WORKER_MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
let world: TestWorld;
const workers: ChildProcess[] = [];

/** A worker process (webhooks and mail only: no engine needed), and the metrics port its log names. */
function startWorker(): { child: ChildProcess; port: Promise<number> } {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER_MAIN], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      DATABASE_URL: world.database.url,
      REDIS_URL: testRedisUrl(inject("redisUrl")),
      CHALLENGE_SERVERS: "off",
      WORKER_ID: uniqueName("port"),
      METRICS_PORT: "0",
      METRICS_HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  workers.push(child);
  const port = new Promise<number>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split("\n").slice(0, -1)) {
        const port = /"metricsPort":(\d+)/.exec(line)?.[1];
        if (port !== undefined) resolve(Number(port));
      }
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before serving its metrics`)));
  });
  return { child, port };
}

beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(async () => {
  await Promise.all(
    workers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
  await world.close();
});

describe("workers started together on one host with METRICS_PORT=0", () => {
  it("each serve /metrics on a port of their own at once, named in their log, and none exits", async () => {
    const started = [startWorker(), startWorker(), startWorker()];
    const ports = await Promise.all(started.map((worker) => worker.port));
    expect(new Set(ports).size).toBe(3);
    for (const port of ports) {
      expect(port).toBeGreaterThan(0);
      const text = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(text).toContain("# TYPE flagship_queue_jobs gauge");
      expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    }
    // Nothing lost a race and restarted: every worker still runs.
    for (const { child } of started) expect(child.exitCode).toBeNull();
  }, 60_000);
});
