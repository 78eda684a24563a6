import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@flagship/db";
import { createTestWorld, createUser, type TestUser, type TestWorld } from "@flagship/api/testing";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll } from "vitest";
import { buildServer } from "./app.ts";
import { loadEnv } from "./env.ts";

export interface TestServer {
  app: FastifyInstance;
  world: TestWorld;
  /** A REST call under /api/v2 with an optional token; the parsed JSON body comes back as `body`. */
  api(
    method: InjectOptions["method"],
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string>; payload?: string },
  ): Promise<{ status: number; body: { s: boolean; m: string; d: any }; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Count requests and gather the copy's numbers, for metricsOf (as METRICS_PORT does). */
  metrics?: boolean;
}

/**
 * The real server (REST, tRPC, static) on a fresh database, driven with fastify.inject. Unless
 * `envOverrides` names a DATA_DIR, the server stores its files in a data folder of its own that
 * `close()` removes.
 */
export async function createTestServer(envOverrides: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const ownDataDir = envOverrides.DATA_DIR === undefined ? await mkdtemp(path.join(os.tmpdir(), "flagship-server-")) : undefined;
  const env = loadEnv({ THROTTLE: "off", LOG_LEVEL: "silent", ...(ownDataDir && { DATA_DIR: ownDataDir }), ...envOverrides });
  // The services follow the same settings a real server reads (mail transport, throttles).
  const world = await createTestWorld({
    ...(env.SMTP_URL && { smtpUrl: env.SMTP_URL }),
    publicUrl: env.PUBLIC_URL,
    throttle: { enabled: env.THROTTLE === "on", ...(env.THROTTLE_RATES && { rates: env.THROTTLE_RATES }), ...(env.REDIS_URL && { redisUrl: env.REDIS_URL }) },
  });
  const app = await buildServer({ env, services: world.services, logger: false, metrics: options.metrics ?? false });
  await app.ready();
  return {
    app,
    world,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Token ${options.token}`;
      let payload = options.payload;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const response = await app.inject({ method, url: `/api/v2${path}`, headers, ...(payload !== undefined && { payload }) });
      let body;
      try {
        body = response.json();
      } catch {
        body = response.body;
      }
      return { status: response.statusCode, body, headers: response.headers };
    },
    async close() {
      await app.close();
      await world.close();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** What most contract tests start from: a test server, a staff account and a player without a team. */
export interface ContractServer {
  server: TestServer;
  staff: TestUser;
  player: TestUser;
}

/**
 * A test server with a staff account and a player. A contract test file takes these in its
 * `beforeAll` and closes `server` in its `afterAll`; it states only what else is special about it.
 */
export async function createContractServer(envOverrides: Record<string, string> = {}, options: TestServerOptions = {}): Promise<ContractServer> {
  const server = await createTestServer(envOverrides, options);
  const staff = await createUser(server.world, { isStaff: true });
  const player = await createUser(server.world);
  return { server, staff, player };
}

/**
 * The set-up most contract test files share, in one line at the top of the file:
 * `const { server, staff, player } = await useContractServer();` builds the server (a fresh
 * database, a staff account and a player) while the file is collected, and closes it after the
 * file's tests.
 */
export async function useContractServer(envOverrides: Record<string, string> = {}, options: TestServerOptions = {}): Promise<ContractServer> {
  const contract = await createContractServer(envOverrides, options);
  afterAll(() => contract.server.close());
  return contract;
}

/** The authorization header for `user`'s token (none for an anonymous caller), for raw `app.inject` calls. */
export function authHeader(user?: { token: string }): Record<string, string> {
  return user ? { authorization: `Token ${user.token}` } : {};
}

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A real server process (apps/server/src/main.ts) for tests that need several copies at once. */
export interface ServerCopy {
  port: number;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a server copy on a free port against `env` (DATABASE_URL, REDIS_URL...), in production
 * mode with throttles off unless `env` says otherwise; resolves once it answers.
 */
export async function startServerCopy(env: Record<string, string>): Promise<ServerCopy> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT,
    // No worker tier beside a test copy: tests that need workers start their own.
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", THROTTLE: "off", LOG_LEVEL: "warn", WORKERS: "0", ...env, PORT: String(port) },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server copy exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v2/stats/version/`);
      if (res.ok) return { port, url, child, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error("server copy did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
