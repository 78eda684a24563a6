import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { drainWorkers, heartbeat, leave } from "./planner.ts";
import { createChallengeServerTier } from "./tier.ts";
import { callerFor, createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";

/**
 * The staff console's tier at a glance: workers from their heartbeats, engines, instances by state
 * and the challenge-server queue in Redis (a prefix of this file's own, which no worker reads).
 */

let world: TestWorld;
let staff: TestUser;
let player: TestUser;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  world = await createTestWorld();
  world.services.challengeServers = createChallengeServerTier({ redisUrl: inject("redisUrl"), log: silent, prefix: uniqueName("fs-overview") });
  staff = await createUser(world, { isStaff: true });
  player = await createUser(world);
});
afterAll(async () => {
  await world.services.challengeServers?.close();
  await world.close();
});

describe("challengeServers.overview", () => {
  it("is for staff only", async () => {
    await expect(callerFor(world, player).challengeServers.overview()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("counts workers by what they can do, their engines, instances by state and the queue", async () => {
    const { db } = world.services;
    const sharedEngine = uniqueName("engine");
    const [steady, drained, lost, parked, gone] = ["steady", "drained", "lost", "parked", "gone"].map((n) => uniqueName(`w-${n}`)) as [string, string, string, string, string];
    await heartbeat(db, { id: steady, backend: "docker", address: "10.0.0.1", capacity: 10, engine: sharedEngine });
    await heartbeat(db, { id: drained, backend: "docker", address: "10.0.0.1", capacity: 20, engine: sharedEngine });
    await heartbeat(db, { id: lost, backend: "docker", address: "10.0.0.2", capacity: 30, engine: uniqueName("engine"), engineUp: false });
    await heartbeat(db, { id: parked, backend: "docker", address: "10.0.0.3", capacity: 40, engine: uniqueName("engine") });
    await heartbeat(db, { id: gone, backend: "docker", address: "10.0.0.4", capacity: 50, engine: uniqueName("engine") });
    await drainWorkers(db, { id: drained });
    await leave(db, parked, 600);
    await leave(db, gone);

    const challenge = await createChallenge(world, (await createCategory(world)).id);
    const job = await db.challengeServerJob.create({ data: { name: uniqueName("job"), challengeId: challenge.id, port: 8000, replicas: 6, memory: 1n << 26n, cpus: 0.2, image: "local/x:1" }, select: { id: true } });
    const place = (slot: number, workerId: string, status: string) => db.challengeServerInstance.create({ data: { jobId: job.id, generation: 1, slot, workerId, status }, select: { id: true } });
    const healthy = await place(0, steady, "healthy");
    await place(1, steady, "pending");
    await place(2, drained, "unhealthy");
    await place(3, lost, "failed");
    await place(4, parked, "healthy");
    await place(5, gone, "healthy");
    const team = await createTeamWith(world);
    await db.teamInstance.create({ data: { teamId: team.id, jobId: job.id, instanceId: healthy.id } });
    world.services.challengeServers!.plan(job.id);

    await vi.waitFor(async () => expect((await callerFor(world, staff).challengeServers.overview()).queue?.waiting).toBe(1));
    const overview = await callerFor(world, staff).challengeServers.overview();
    expect(overview.workers).toEqual({ live: 3, placeable: 1, draining: 1, engine_lost: 1, parked: 1, load: 5, capacity: 60, stalest_heartbeat_seconds: expect.any(Number) });
    expect(overview.workers.stalest_heartbeat_seconds).toBeLessThan(10);
    expect(overview.engines).toEqual({ total: 2, unreachable: 1 });
    expect(overview.instances).toEqual({ pending: 1, healthy: 3, unhealthy: 1, failed: 1, orphaned: 1, teams_pinned: 1 });
    expect(overview.queue).toEqual({ waiting: 1, active: 0, delayed: 0, failed: 0, oldest_waiting_seconds: expect.any(Number) });
  });

  it("has no queue without Redis", async () => {
    const tier = world.services.challengeServers;
    world.services.challengeServers = undefined;
    try {
      expect((await callerFor(world, staff).challengeServers.overview()).queue).toBeNull();
    } finally {
      world.services.challengeServers = tier;
    }
  });
});
