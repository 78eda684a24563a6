import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heartbeat, reconcile } from "./planner.ts";
import { callerFor, createCategory, createChallenge, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";

/**
 * Draining a worker from the staff workers list (tRPC): audited, no new placements on it, and
 * the periodic pass moves its instances to other workers. Workers here are heartbeats only; the
 * containers' side is tested with real workers against Docker.
 */

let world: TestWorld;
let staff: TestUser;
let player: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  player = await createUser(world);
});
afterAll(() => world.close());

describe("challengeServers.drainWorker", () => {
  it("takes a worker out of service: audited, no new placements, its instances moved to other workers", async () => {
    const { db } = world.services;
    const drained = uniqueName("w-drained");
    const kept = uniqueName("w-kept");
    for (const id of [drained, kept]) await heartbeat(db, { id, backend: "docker", address: "127.0.0.1", capacity: 10, engine: uniqueName("engine") });
    const challenge = await createChallenge(world, (await createCategory(world)).id);
    const job = await db.challengeServerJob.create({ data: { name: uniqueName("job"), challengeId: challenge.id, port: 8000, replicas: 2, memory: 1n << 26n, cpus: 0.2, image: "local/x:1" }, select: { id: true } });
    const rows = await Promise.all([0, 1].map((slot) => db.challengeServerInstance.create({ data: { jobId: job.id, generation: 1, slot, workerId: drained, status: "healthy", port: 40000 + slot }, select: { id: true } })));

    await expect(callerFor(world, player).challengeServers.drainWorker({ id: drained })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, staff).challengeServers.drainWorker({ id: uniqueName("nobody") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await callerFor(world, staff).challengeServers.drainWorker({ id: drained })).toEqual({ id: drained, instances: 2 });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "drain_challenge_server_worker" }, orderBy: { id: "desc" } });
    expect(audit.extra).toEqual({ id: drained, instances: 2 });
    const listed = await callerFor(world, staff).challengeServers.workers();
    expect(listed.find((w) => w.id === drained)).toMatchObject({ draining: true });

    await reconcile(db);
    const after = await db.challengeServerInstance.findMany({ where: { id: { in: rows.map((r) => r.id) } }, select: { workerId: true, status: true } });
    expect(after).toEqual([
      { workerId: kept, status: "pending" },
      { workerId: kept, status: "pending" },
    ]);
    // A worker that heartbeats on is still drained; one started afresh is back in service.
    await heartbeat(db, { id: drained, backend: "docker", address: "127.0.0.1", capacity: 10 });
    expect((await db.challengeServerWorker.findUniqueOrThrow({ where: { id: drained } })).draining).toBe(true);
  });
});
