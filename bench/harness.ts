import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, createDb, type Db, databaseUrl, ensureDatabase, freePort, startEmbeddedPostgres } from "@flagship/db";
import autocannon from "autocannon";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Database {
  db: Db;
  url: string;
  stop(): Promise<void>;
}

/** A throwaway embedded PostgreSQL with a migrated, empty database. */
export async function startDatabase(): Promise<Database> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "flagship-bench-"));
  const pg = await startEmbeddedPostgres({ dataDir: dir, fast: true });
  await ensureDatabase(pg.baseUrl, "bench");
  const url = databaseUrl(pg.baseUrl, "bench");
  await applyMigrations(url);
  const db = createDb(url, { poolSize: 10 });
  return {
    db,
    url,
    async stop() {
      await db.$disconnect();
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Server {
  baseUrl: string;
  stop(): Promise<void>;
}

/** The real server in production mode (no throttles) on a free port, as its own process. */
export async function startServer(url: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--enable-source-maps", "apps/server/dist/main.js"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: url, THROTTLE: "off", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/v2/stats/version/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  goal: string;
  met: boolean;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  requests?: autocannon.Request[];
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

/** autocannon with a warm-up run first (JIT, caches, pools), then the measured run. */
export async function load(options: LoadOptions): Promise<autocannon.Result> {
  const base = {
    url: options.url,
    connections: options.connections ?? 100,
    ...(options.requests && { requests: options.requests }),
    ...(options.method && { method: options.method }),
    ...(options.headers && { headers: options.headers }),
    ...(options.body && { body: options.body }),
  };
  await autocannon({ ...base, duration: options.warmupSeconds ?? 3 });
  return autocannon({ ...base, duration: options.seconds ?? 10 });
}

export function summarise(name: string, result: autocannon.Result, goal: { rps: number; p99: number }): Measurement {
  const rps = Math.round(result.requests.average);
  const p99 = result.latency.p99;
  return {
    name,
    requestsPerSecond: rps,
    p50: result.latency.p50,
    p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    goal: `>= ${goal.rps} req/s, p99 < ${goal.p99} ms`,
    met: rps >= goal.rps && p99 < goal.p99 && result.errors === 0 && result.non2xx === 0,
  };
}
