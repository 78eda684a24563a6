import { type AuthedContext, drainWorkers, type MetricsListener, startMetricsListener, submitJob } from "@flagship/api";
import { contextFor, createChallenge, sample, scrape, type TestUser, uniqueName } from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import { QUEUES, redisConnection } from "@flagship/jobs";
import { Queue, Worker } from "bullmq";
import Docker from "dockerode";
import { describe, expect, inject, it, vi } from "vitest";
import { LABELS } from "./challenge-servers/deployer.ts";
import type { TierOptions } from "./challenge-servers/runtime.ts";
import { BANNER_IMAGE, BANNER_PORT } from "./challenge-servers/test-image.ts";
import { useTierFixture } from "./challenge-servers/tier-fixture.ts";
import { createWorkerMetrics } from "./metrics.ts";

/**
 * A worker's /metrics on the real Docker engine and Redis: each family is read after the action
 * that moves it (a deploy, a container killed, a failed pull, jobs queued and running, a drain, an
 * engine that does not answer).
 */

const { docker, world, staff, categoryId, prefix, startWorker: startTier, ourContainers, onClose } = await useTierFixture("m");
const connection = () => redisConnection(inject("redisUrl"));

/** A tier and its /metrics on a listener of its own; `read` scrapes it. */
async function startWorker(overrides: Partial<TierOptions> = {}) {
  const tier = await startTier(uniqueName("mw"), overrides);
  const metrics = createWorkerMetrics({ db: world.services.db, connection: connection(), prefix, queues: Object.values(QUEUES), tier, lastHeartbeat: tier.lastHeartbeat });
  const listener: MetricsListener = await startMetricsListener(metrics.registry, { host: "127.0.0.1", port: 0 });
  onClose(() => listener.close());
  onClose(metrics.close);
  return { tier, read: () => scrape(`http://127.0.0.1:${listener.port}/metrics`) };
}

const ctxOf = (user: TestUser) => contextFor(world, user) as AuthedContext;
const jobName = () => uniqueName("mj").toLowerCase().replace(/[^a-z0-9]/g, "");

async function submit(name: string, spec: Record<string, unknown> = {}) {
  const challenge = await createChallenge(world, categoryId);
  return submitJob(ctxOf(staff), { challenge_id: challenge.id, job_spec: { name, port: BANNER_PORT, image: BANNER_IMAGE, replicas: 1, resources: { memory: 32 * 1024 * 1024, cpus: 0.2 }, ...spec } });
}

const deploysOf = (text: string, outcome: string) => sample(text, "flagship_deploys_total", { outcome }) ?? 0;

describe("a worker's metrics", () => {
  let worker: Awaited<ReturnType<typeof startWorker>>;
  const shared = jobName();

  it("show its engine answering and its heartbeats", async () => {
    worker = await startWorker();
    const text = await worker.read();
    expect(sample(text, "flagship_engine_up", { engine: worker.tier.engine.slice(0, 12) })).toBe(1);
    expect(sample(text, "flagship_worker_last_heartbeat_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 10);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(text, "flagship_worker_draining")).toBe(0);
  });

  it("count a deploy that succeeded, time it, and show the instance healthy", async () => {
    const before = await worker.read();
    await submit(shared);
    await vi.waitFor(async () => expect(sample(await worker.read(), "flagship_instances", { job_name: shared, state: "healthy", kind: "shared" })).toBe(1), { timeout: 30_000, interval: 200 });
    await vi.waitFor(async () => expect(deploysOf(await worker.read(), "succeeded") - deploysOf(before, "succeeded")).toBe(1), { timeout: 10_000, interval: 200 });
    const after = await worker.read();
    const count = (text: string) => sample(text, "flagship_deploy_duration_seconds_count", { outcome: "succeeded" }) ?? 0;
    expect(count(after) - count(before)).toBe(1);
    expect(sample(after, "flagship_deploy_duration_seconds_sum", { outcome: "succeeded" })).toBeGreaterThan(0);
  }, 60_000);

  it("count a replica replaced after its container died, and its redeploy", async () => {
    const job = await world.services.db.challengeServerJob.findUniqueOrThrow({ where: { name: shared } });
    const before = await worker.read();
    const [victim] = await ourContainers({ [LABELS.job]: String(job.id) });
    await docker.getContainer(victim!.Id).kill();
    await vi.waitFor(async () => expect((sample(await worker.read(), "flagship_replica_replacements_total", { reason: "died" }) ?? 0) - (sample(before, "flagship_replica_replacements_total", { reason: "died" }) ?? 0)).toBe(1), {
      timeout: 10_000,
      interval: 200,
    });
    await vi.waitFor(async () => expect(deploysOf(await worker.read(), "succeeded") - deploysOf(before, "succeeded")).toBe(1), { timeout: 30_000, interval: 200 });
    expect(sample(await worker.read(), "flagship_instances", { job_name: shared, state: "healthy", kind: "shared" })).toBe(1);
  }, 60_000);

  it("count a deploy the engine refused, and show its instance failed", async () => {
    const name = jobName();
    const before = await worker.read();
    // An internal registry is allowed only when the operator lists it; nothing listens there.
    world.services.challengeRegistries = ["127.0.0.1:1"];
    try {
      await submit(name, { image: "127.0.0.1:1/flagship/missing:1" });
    } finally {
      world.services.challengeRegistries = undefined;
    }
    await vi.waitFor(async () => expect(sample(await worker.read(), "flagship_instances", { job_name: name, state: "failed", kind: "shared" })).toBe(1), { timeout: 30_000, interval: 200 });
    expect(deploysOf(await worker.read(), "failed") - deploysOf(before, "failed")).toBe(1);
  }, 60_000);

  it("show the jobs of a queue by state, and the age of the oldest waiting and running", async () => {
    // No mail worker runs in this test: a job added waits until the test takes it.
    const queue = new Queue(QUEUES.mail, { connection: connection(), prefix });
    onClose(() => queue.close());
    await queue.add("mail", { to: "a@example.test" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    let text = await worker.read();
    expect(sample(text, "flagship_queue_jobs", { queue: QUEUES.mail, state: "waiting" })).toBe(1);
    expect(sample(text, "flagship_worker_redis_up")).toBe(1);
    expect(sample(text, "flagship_queue_oldest_job_age_seconds", { queue: QUEUES.mail, state: "waiting" })).toBeGreaterThanOrEqual(0.3);
    expect(sample(text, "flagship_queue_oldest_job_age_seconds", { queue: QUEUES.mail, state: "active" })).toBe(0);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const consumer = new Worker(QUEUES.mail, () => held, { connection: connection(), prefix });
    onClose(() => consumer.close());
    await vi.waitFor(async () => expect(sample(await worker.read(), "flagship_queue_jobs", { queue: QUEUES.mail, state: "active" })).toBe(1), { timeout: 10_000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    text = await worker.read();
    expect(sample(text, "flagship_queue_jobs", { queue: QUEUES.mail, state: "waiting" })).toBe(0);
    expect(sample(text, "flagship_queue_oldest_job_age_seconds", { queue: QUEUES.mail, state: "active" })).toBeGreaterThanOrEqual(0.3);
    release();
    await vi.waitFor(async () => expect(sample(await worker.read(), "flagship_queue_jobs", { queue: QUEUES.mail, state: "active" })).toBe(0), { timeout: 10_000, interval: 100 });
  });

  it("show a drain and the instances it still has to move", async () => {
    await drainWorkers(world.services.db, { id: worker.tier.workerId });
    const held = await world.services.db.challengeServerInstance.count({ where: { workerId: worker.tier.workerId } });
    expect(held).toBeGreaterThan(0);
    const text = await worker.read();
    expect(sample(text, "flagship_worker_draining")).toBe(1);
    // No other worker runs: nothing can move, and the gauge says how much is left.
    expect(sample(text, "flagship_drain_instances_remaining")).toBe(held);
  });
});

describe("a worker whose Redis does not answer", () => {
  it("still serves its other numbers at once, and says Redis is down", async () => {
    const port = await freePort();
    const metrics = createWorkerMetrics({ db: world.services.db, connection: redisConnection(`redis://127.0.0.1:${port}`), prefix, queues: Object.values(QUEUES) });
    const listener = await startMetricsListener(metrics.registry, { host: "127.0.0.1", port: 0 });
    onClose(() => listener.close());
    onClose(metrics.close);
    const started = Date.now();
    const text = await scrape(`http://127.0.0.1:${listener.port}/metrics`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sample(text, "flagship_worker_redis_up")).toBe(0);
    expect(sample(text, "flagship_queue_jobs", { queue: QUEUES.mail, state: "waiting" })).toBeUndefined();
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });
});

describe("a worker whose engine does not answer", () => {
  it("shows its engine down", async () => {
    const { tier, read } = await startWorker({ docker: new Docker({ socketPath: "/nonexistent/docker.sock" }) });
    expect(tier.engineUp()).toBe(false);
    expect(sample(await read(), "flagship_engine_up", { engine: "unknown" })).toBe(0);
  });
});
