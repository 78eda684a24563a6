import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { configurePasswordHashing, DEFAULT_HASHING, type MetricsListener, RedisPublisher, startMetricsListener } from "@flagship/api";
import {
  createCategory,
  createChallenge,
  createTeamWith,
  createTestWorld,
  createUser,
  heldHasher,
  labelSets,
  sample,
  scrape,
  TEST_PASSWORD,
  type TestWorld,
} from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildServer } from "./app.ts";
import { loadEnv } from "./env.ts";
import { metricsOf } from "./metrics.ts";
import { openSocket } from "./realtime/ws-client.ts";
import { createTestServer, startServerCopy, type TestServer, useContractServer } from "./testing.ts";

/** Each family is read after the action that moves it, on the metrics listener (real HTTP). */

const { server, staff } = await useContractServer({}, { metrics: true });
let listener: MetricsListener;
let metricsUrl: string;
const read = () => scrape(metricsUrl);

beforeAll(async () => {
  listener = await startMetricsListener(metricsOf(server.app), { host: "127.0.0.1", port: 0 });
  metricsUrl = `http://127.0.0.1:${listener.port}/metrics`;
});
afterAll(() => listener.close());

const requests = (text: string, labels: Record<string, string>) => sample(text, "flagship_http_requests_total", labels) ?? 0;

describe("requests", () => {
  it("count and time REST calls by route template, never by raw URL", async () => {
    const before = await read();
    const route = { route: "/api/v2/challenges/:id/", method: "GET" };
    const count = (text: string) => sample(text, "flagship_http_request_duration_seconds_count", route) ?? 0;
    await server.api("GET", "/challenges/987654321/", { token: staff.token });
    await server.api("GET", "/challenges/987654322/", { token: staff.token });
    await server.api("GET", "/no-such-path-abc/");
    // A page of the web app (the history fallback answers it): one family whatever the path.
    await server.app.inject({ method: "GET", url: "/campaign/some-category-xyz" });
    const after = await read();
    expect(count(after) - count(before)).toBe(2);
    // A histogram as Prometheus reads one: cumulative buckets up to +Inf, which holds them all.
    const bucket = (text: string, le: string) => sample(text, "flagship_http_request_duration_seconds_bucket", { ...route, le }) ?? 0;
    expect(bucket(after, "+Inf") - bucket(before, "+Inf")).toBe(2);
    expect(bucket(after, "+Inf")).toBe(count(after));
    expect(bucket(after, "0.001")).toBeLessThanOrEqual(bucket(after, "0.01"));
    expect(bucket(after, "30")).toBe(bucket(after, "+Inf"));
    expect(sample(after, "flagship_http_request_duration_seconds_sum", route)).toBeGreaterThan(0);
    expect(after).toContain("# TYPE flagship_http_request_duration_seconds histogram");
    expect(requests(after, { ...route, code: "404" }) - requests(before, { ...route, code: "404" })).toBe(2);
    expect(requests(after, { route: "unmatched", code: "404" }) - requests(before, { route: "unmatched", code: "404" })).toBe(1);
    expect(after).not.toContain("987654321");
    expect(after).not.toContain("no-such-path-abc");
    expect(requests(after, { route: "page", method: "GET", code: "200" }) - requests(before, { route: "page", method: "GET", code: "200" })).toBe(1);
    expect(after).not.toContain("some-category-xyz");
  });

  it("count tRPC calls by procedure, each of a batch, and unknown names as one family", async () => {
    const before = await read();
    await server.app.inject({ method: "GET", url: "/trpc/stats.version" });
    await server.app.inject({ method: "GET", url: `/trpc/stats.version,stats.countdown?batch=1&input=${encodeURIComponent("{}")}` });
    await server.app.inject({ method: "GET", url: "/trpc/made.up.procedure" });
    const after = await read();
    const delta = (route: string) => requests(after, { route, method: "GET" }) - requests(before, { route, method: "GET" });
    expect(delta("/trpc/stats.version")).toBe(2);
    expect(delta("/trpc/stats.countdown")).toBe(1);
    expect(delta("/trpc/unknown")).toBe(1);
    expect(after).not.toContain("made.up.procedure");
    const routes = new Set(labelSets(after, "flagship_http_requests_total").map((labels) => labels.route));
    for (const route of routes) expect(route).toMatch(/^(\/api\/|\/trpc\/|\/healthz$|\/readyz$|\/$|static$|page$|unmatched$|\*$)/);
  });

  it("are not served on the public port", async () => {
    const response = await server.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain("flagship_http_requests_total");
  });

  it("answer 404 on the metrics listener for anything but GET /metrics", async () => {
    expect((await fetch(`http://127.0.0.1:${listener.port}/`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(404);
  });
});

describe("the game", () => {
  it("counts flag submissions by outcome and first bloods", async () => {
    const team = await createTeamWith(server.world);
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const token = team.members[0]!.token;
    const outcome = (text: string, value: string) => sample(text, "flagship_flag_submissions_total", { outcome: value }) ?? 0;
    const before = await read();
    await server.api("POST", "/challenges/submit_flag/", { token, body: { challenge: challenge.id, flag: "flag{wrong}" } });
    await server.api("POST", "/challenges/submit_flag/", { token, body: { challenge: challenge.id, flag: "flag{right}" } });
    await server.api("POST", "/challenges/submit_flag/", { token, body: { challenge: challenge.id, flag: "flag{right}" } });
    const after = await read();
    expect(outcome(after, "incorrect_flag") - outcome(before, "incorrect_flag")).toBe(1);
    expect(outcome(after, "correct_flag") - outcome(before, "correct_flag")).toBe(1);
    expect(outcome(after, "already_solved_challenge") - outcome(before, "already_solved_challenge")).toBe(1);
    expect((sample(after, "flagship_first_bloods_total") ?? 0) - (sample(before, "flagship_first_bloods_total") ?? 0)).toBe(1);
    // The correct flag went through the batch of solves: one batch of one, one wait.
    const delta = (name: string) => (sample(after, name) ?? 0) - (sample(before, name) ?? 0);
    expect(delta("flagship_solve_batch_size_count")).toBe(1);
    expect(delta("flagship_solve_batch_size_sum")).toBe(1);
    expect(delta("flagship_solve_wait_seconds_count")).toBe(1);
  });

  it("shows a burst of correct flags recorded in batches, and the wait for them", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const teams = await Promise.all(Array.from({ length: 12 }, () => createTeamWith(server.world)));
    const before = await read();
    const answers = await Promise.all(
      teams.map((team) => server.api("POST", "/challenges/submit_flag/", { token: team.members[0]!.token, body: { challenge: challenge.id, flag: "flag{right}" } })),
    );
    expect(answers.every((answer) => answer.body.m === "correct_flag")).toBe(true);
    const after = await read();
    const delta = (name: string) => (sample(after, name) ?? 0) - (sample(before, name) ?? 0);
    expect(delta("flagship_solve_batch_size_sum")).toBe(12);
    expect(delta("flagship_solve_wait_seconds_count")).toBe(12);
    // Twelve solves arriving together do not each get a transaction of their own.
    expect(delta("flagship_solve_batch_size_count")).toBeLessThan(12);
  });
});

describe("the hashing pool", () => {
  it("shows hashes running and waiting, times their wait, and counts those refused", async () => {
    const user = await createUser(server.world);
    const hasher = heldHasher();
    // One hash at a time and one waiting at most: the third login is refused.
    configurePasswordHashing({ concurrency: 1, maxWaiting: 1, maxWaitMs: 60_000, hasher });
    const logIn = () => server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } });
    try {
      const before = await read();
      const first = logIn();
      await vi.waitFor(() => expect(hasher.running()).toBe(1), { timeout: 30_000 });
      const second = logIn();
      await vi.waitFor(async () => expect(sample(await read(), "flagship_password_hashes", { state: "waiting" })).toBe(1), { timeout: 10_000 });
      const during = await read();
      expect(sample(during, "flagship_password_hashes", { state: "running" })).toBe(1);
      expect((await logIn()).status).toBe(429);
      // The second waits while the first is held: its wait is at least this pause.
      await new Promise((resolve) => setTimeout(resolve, 100));
      hasher.finishAll();
      await vi.waitFor(() => expect(hasher.running()).toBe(1), { timeout: 30_000 });
      hasher.finishAll();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
      const after = await read();
      const waits = (text: string) => sample(text, "flagship_password_hash_wait_seconds_count") ?? 0;
      const waited = (text: string) => sample(text, "flagship_password_hash_wait_seconds_sum") ?? 0;
      expect(waits(after) - waits(before)).toBe(2);
      expect(waited(after) - waited(before)).toBeGreaterThanOrEqual(0.1);
      expect((sample(after, "flagship_password_hashes_refused_total") ?? 0) - (sample(before, "flagship_password_hashes_refused_total") ?? 0)).toBe(1);
      expect(sample(after, "flagship_password_hashes", { state: "running" })).toBe(0);
    } finally {
      configurePasswordHashing(DEFAULT_HASHING);
    }
  });
});

describe("the database pool", () => {
  it("shows its size and use, and counts failed statements by SQLSTATE class", async () => {
    const before = await read();
    await expect(server.world.services.db.$queryRawUnsafe("SELECT 1 / 0")).rejects.toThrow();
    const after = await read();
    expect(sample(after, "flagship_db_pool_max_connections")).toBe(20);
    expect(sample(after, "flagship_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(1);
    expect(sample(after, "flagship_db_pool_connections", { state: "busy" })).toBeGreaterThanOrEqual(0);
    expect(sample(after, "flagship_db_pool_waiting")).toBe(0);
    // 22012 division_by_zero: class 22, data exception.
    expect((sample(after, "flagship_db_errors_total", { class: "22" }) ?? 0) - (sample(before, "flagship_db_errors_total", { class: "22" }) ?? 0)).toBe(1);
  });

  it("counts a unique violation inside a transaction (the adapter's other path)", async () => {
    const before = await read();
    const name = `dup-${Date.now()}`;
    await server.world.services.db.team.create({ data: { name, password: "x" } });
    await expect(server.world.services.db.$transaction(async (tx) => tx.team.create({ data: { name, password: "x" } }))).rejects.toThrow();
    const after = await read();
    expect((sample(after, "flagship_db_errors_total", { class: "23" }) ?? 0) - (sample(before, "flagship_db_errors_total", { class: "23" }) ?? 0)).toBe(1);
  });
});

describe("websockets", () => {
  it("shows those open and counts the events written to them", async () => {
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (server.app.server.address() as AddressInfo).port;
    const before = await read();
    const sockets = [await openSocket(`ws://127.0.0.1:${port}/api/v2/ws/`), await openSocket(`ws://127.0.0.1:${port}/api/v2/ws/`)];
    expect(sample(await read(), "flagship_websockets_open")).toBe(2);
    const created = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "metrics", body: "counted" } });
    expect(created.status).toBe(201);
    await Promise.all(sockets.map((socket) => socket.waitFor((event) => event.title === "metrics")));
    const after = await read();
    const delivered = (text: string) => sample(text, "flagship_websocket_events_delivered_total") ?? 0;
    expect(delivered(after) - delivered(before)).toBe(2);
    // The upgrade is no request with a duration: it is not timed.
    expect(labelSets(after, "flagship_http_requests_total").some((labels) => labels.route?.endsWith("/ws/"))).toBe(false);
    for (const socket of sockets) socket.close();
    await Promise.all(sockets.map((socket) => socket.closed));
    await vi.waitFor(async () => expect(sample(await read(), "flagship_websockets_open")).toBe(0));
  });
});

describe("the event bus", () => {
  let redisPort: number;
  let redis: ChildProcess | null = null;
  let world: TestWorld;
  let app: FastifyInstance;
  let events: RedisPublisher;
  let busListener: MetricsListener;

  const canConnect = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  const startRedis = async () => {
    redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    while (!(await canConnect(redisPort))) await new Promise((r) => setTimeout(r, 50));
  };
  const stopRedis = async () => {
    const child = redis;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  const busRead = () => scrape(`http://127.0.0.1:${busListener.port}/metrics`);

  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    world = await createTestWorld();
    events = new RedisPublisher(`redis://127.0.0.1:${redisPort}`);
    await events.connected();
    app = await buildServer({ env: loadEnv({ THROTTLE: "off", LOG_LEVEL: "silent" }), services: { ...world.services, events }, logger: false, metrics: true });
    await app.ready();
    busListener = await startMetricsListener(metricsOf(app), { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await busListener.close();
    await app.close();
    await events.close();
    await stopRedis();
    await world.close();
  });

  it("shows Redis down and up, events kept local during the outage, and those replayed after it", async () => {
    await events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 2, title: "before" } });
    await vi.waitFor(async () => expect(sample(await busRead(), "flagship_events_published_total", { path: "redis" })).toBe(1));
    expect(sample(await busRead(), "flagship_event_bus_up")).toBe(1);

    await stopRedis();
    await vi.waitFor(async () => expect(sample(await busRead(), "flagship_event_bus_up")).toBe(0), { timeout: 10_000 });
    await events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 2, title: "during" } });
    expect(sample(await busRead(), "flagship_events_published_total", { path: "local_only" })).toBe(1);
    expect(sample(await busRead(), "flagship_events_replayed_total")).toBe(0);

    await startRedis();
    await vi.waitFor(
      async () => {
        const text = await busRead();
        expect(sample(text, "flagship_event_bus_up")).toBe(1);
        expect(sample(text, "flagship_events_replayed_total")).toBe(1);
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(sample(await busRead(), "flagship_events_dropped_total")).toBe(0);
  }, 40_000);
});

describe("a server built without metrics (no METRICS_PORT)", () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await createTestServer();
  });
  afterAll(() => plain.close());

  it("does no work per request for them, and still answers 404 for /metrics", async () => {
    // The copy with metrics times every answer in an onResponse hook; this one has none.
    const hooks = (app: TestServer["app"]) => app.printRoutes({ includeHooks: true, commonPrefix: false });
    expect(hooks(server.app)).toContain("countAndTime()");
    expect(hooks(plain.app)).not.toContain("countAndTime()");
    expect(() => metricsOf(plain.app)).toThrow(/without metrics/);
    expect((await plain.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
    expect((await plain.api("GET", "/stats/version/")).status).toBe(200);
  });
});

describe("a server copy with METRICS_PORT", () => {
  let world: TestWorld;
  let copy: Awaited<ReturnType<typeof startServerCopy>> | undefined;
  let metricsPort: number;

  beforeAll(async () => {
    world = await createTestWorld();
    metricsPort = await freePort();
    copy = await startServerCopy({ DATABASE_URL: world.database.url, METRICS_PORT: String(metricsPort) });
  }, 90_000);
  afterAll(async () => {
    await copy?.stop();
    await world.close();
  });

  it("serves the process' numbers on its own listener, and 404 for /metrics on the public port", async () => {
    expect((await fetch(`${copy!.url}/metrics`)).status).toBe(404);
    await fetch(`${copy!.url}/api/v2/stats/version/`);
    const text = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram");
    expect(sample(text, "flagship_build_info")).toBe(1);
    expect(requests(text, { route: "/api/v2/stats/version/", method: "GET", code: "200" })).toBeGreaterThanOrEqual(1);
  });
});

