import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase, type Database, databaseUrl, ensureDatabase, type EmbeddedDatabase, startEmbeddedPostgres } from "@flagship/db";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "./app.ts";
import { loadEnv } from "./env.ts";
import { createServices } from "./services.ts";

/**
 * A PostgreSQL of this test's own (the shared one serves every other test file), stopped and
 * started again under a running server.
 */
let dir: string;
let postgres: EmbeddedDatabase;
let database: Database;
let app: FastifyInstance;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flagship-restart-pg-"));
  postgres = await startEmbeddedPostgres({ dataDir: dir, fast: true });
  await ensureDatabase(postgres.baseUrl, "flagship");
  database = await connectDatabase({ databaseUrl: databaseUrl(postgres.baseUrl, "flagship"), dataDir: dir });
  const env = loadEnv({ THROTTLE: "off", LOG_LEVEL: "silent", DATA_DIR: dir });
  const silent = { info() {}, warn() {}, error() {} };
  app = await buildServer({ env, services: createServices({ db: database.db, log: silent, env }), logger: false });
  await app.ready();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.db.$disconnect();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A request that always reads the database: a login attempt for an unknown account. */
const login = () =>
  app.inject({ method: "POST", url: "/api/v2/auth/login/", payload: { username: "nobody-here", password: "not the password" } });
const trpcLogin = () =>
  app.inject({ method: "POST", url: "/trpc/auth.login", headers: { "content-type": "application/json" }, payload: { json: { username: "nobody-here", password: "not the password" } } });

describe("a PostgreSQL restart under a running server", () => {
  it("answers 503 with Retry-After in the envelope while it is down, then recovers by itself", async () => {
    expect((await login()).statusCode).toBe(401);

    await postgres.stop();
    const down = await login();
    expect({ status: down.statusCode, retryAfter: down.headers["retry-after"], body: down.json() }).toEqual({
      status: 503,
      retryAfter: "5",
      body: { s: false, m: "service_unavailable", d: "" },
    });
    const downTrpc = await trpcLogin();
    expect({ status: downTrpc.statusCode, retryAfter: downTrpc.headers["retry-after"] }).toEqual({ status: 503, retryAfter: "5" });
    expect(downTrpc.json().error.json.data.appCode).toBe("service_unavailable");

    // Started again on the same port; the server reconnects without being told. Until it is up
    // (and while it starts: 57P03) every answer is 503, never 500.
    const restarting = startEmbeddedPostgres({ dataDir: dir, fast: true });
    const statuses = new Set<number>();
    let last = 0;
    const deadline = Date.now() + 60_000;
    while (last !== 401 && Date.now() < deadline) {
      last = (await login()).statusCode;
      statuses.add(last);
      if (last !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    postgres = await restarting;
    expect([...statuses].filter((s) => s !== 401 && s !== 503)).toEqual([]);
    expect(last).toBe(401);
  }, 120_000);
});
