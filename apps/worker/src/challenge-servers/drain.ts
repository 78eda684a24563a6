import { drainWorkers, instancesHeldBy, reconcile } from "@flagship/api";
import type { Db } from "@flagship/db";
import { JobProducer } from "@flagship/jobs";
import type { ConnectionOptions } from "bullmq";
import type Docker from "dockerode";
import { setTimeout as sleep } from "node:timers/promises";
import { LABELS } from "./deployer.ts";
import { chooseDeployer } from "./runtime.ts";

export interface DrainOptions {
  db: Db;
  connection: ConnectionOptions;
  docker: Docker;
  deployment: string;
  /** The backend the host's workers use (CHALLENGE_BACKEND), so the drain sees the engine's units as they do; default auto. */
  backend?: "auto" | "docker" | "swarm";
  /** Drains only this worker (WORKER_ID given); unset: every worker of this installation on the engine. */
  workerId?: string;
  /** Where progress goes, a line at a time (the terminal). */
  out: (line: string) => void;
  /** BullMQ's key prefix, the same as the server's. */
  prefix?: string;
  /** Gives up (exit status 1) after this long. */
  timeoutMs?: number;
  /** How often progress is checked. */
  pollMs?: number;
}

const PROGRESS_EVERY_MS = 5000;

/**
 * Takes this host's engine out of the tier (`npm run worker -- --drain`): every worker of this
 * installation on the engine (or only the one WORKER_ID names) is marked draining (no new placements), its instances are moved to
 * other workers by the periodic pass (started here at once, not waiting for its turn), and once
 * each moved instance is healthy on its new worker the units left on this engine are removed.
 * Says what it waits for, and when it is done. Returns the exit status: 0 done, 1 not done in time.
 */
export async function drainEngine(options: DrainOptions): Promise<number> {
  const { db, docker, deployment, out } = options;
  const backend = options.backend ?? "auto";
  const deployer = await chooseDeployer({ docker, backend, deployment, bindAddress: "127.0.0.1", publicHost: "127.0.0.1", workerId: "drain" });
  const engine = await deployer.engineId();
  const drained = await drainWorkers(db, options.workerId !== undefined ? { id: options.workerId } : { engine });
  if (drained.length === 0) {
    out(options.workerId !== undefined ? `No worker ${options.workerId} in this installation: nothing to drain.` : "No worker of this installation has run on this engine: nothing to drain.");
    return 0;
  }
  const moving = (await db.challengeServerInstance.findMany({ where: { workerId: { in: drained } }, select: { id: true } })).map((r) => r.id);
  out(`Draining ${drained.join(", ")}: ${moving.length} instance${moving.length === 1 ? "" : "s"} to move to other workers.`);

  const producer = new JobProducer(options.connection, { ...(options.prefix !== undefined && { prefix: options.prefix }), onError: () => undefined });
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 600_000);
    let lastSaid = 0;
    for (;;) {
      // The periodic pass would move them within seconds; running it here moves them now.
      for (const id of await reconcile(db)) await producer.wakeWorker(id).catch(() => undefined);
      const held = await instancesHeldBy(db, drained);
      const waiting = await db.challengeServerInstance.count({ where: { id: { in: moving }, status: { not: "healthy" } } });
      if (held === 0 && waiting === 0) break;
      if (Date.now() > deadline) {
        out(`Not done in time: ${held} instance${held === 1 ? "" : "s"} still on this host, ${waiting} not yet healthy elsewhere. Run the drain again to go on waiting.`);
        return 1;
      }
      if (Date.now() - lastSaid >= PROGRESS_EVERY_MS) {
        lastSaid = Date.now();
        const room = await db.$queryRaw<{ n: bigint }[]>`
          SELECT COUNT(*)::bigint AS n FROM challenge_server_workers
          WHERE NOT draining AND engine_lost_at IS NULL AND last_seen > now() - interval '15 seconds'`;
        out(
          Number(room[0]?.n ?? 0) === 0
            ? `Waiting for a worker on another host: ${held} instance${held === 1 ? "" : "s"} cannot move until one runs.`
            : `Moving: ${held} still on this host, ${waiting} starting on other workers.`,
        );
      }
      await sleep(options.pollMs ?? 1000);
    }
    // Nothing of this engine's workers is wanted any more: what is left on it goes, and so do
    // their spare networks (a worker still running removes its own units too; both are harmless).
    for (const unit of await deployer.list()) {
      const owner = unit.labels[LABELS.worker];
      if (owner !== undefined && drained.includes(owner)) await deployer.remove(unit.name);
    }
    for (const workerId of drained) {
      const own = await chooseDeployer({ docker, backend, deployment, bindAddress: "127.0.0.1", publicHost: "127.0.0.1", workerId });
      await own.prepare?.(0, async () => () => true, () => true);
    }
    // A stopped worker drained has nothing left to adopt: forget it now.
    await db.$executeRaw`UPDATE challenge_server_workers SET parked_until = NULL WHERE id = ANY(${drained})`;
    out(`Drained: ${moving.length} instance${moving.length === 1 ? "" : "s"} now run on other workers and this host runs none. Stop its worker and remove the host.`);
    return 0;
  } finally {
    await producer.close();
  }
}
