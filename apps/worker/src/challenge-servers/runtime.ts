import { heartbeat, leave, planJob, reconcile } from "@flagship/api";
import type { Db } from "@flagship/db";
import { JobProducer, parseJob, QUEUES, workerQueueName, ZWorkerTask } from "@flagship/jobs";
import { type ConnectionOptions, Queue, Worker } from "bullmq";
import type Docker from "dockerode";
import { Converger } from "./converger.ts";
import { type Deployer, LABELS } from "./deployer.ts";
import { DockerDeployer } from "./docker-deployer.ts";
import { SwarmDeployer } from "./swarm-deployer.ts";

export interface TierOptions {
  db: Db;
  connection: ConnectionOptions;
  docker: Docker;
  workerId: string;
  /** Label value that keeps this deployment's units apart from anything else on the engine. */
  deployment: string;
  bindAddress: string;
  publicHost: string;
  capacity: number;
  /** Where health checks connect (a worker in a container reaches the host's ports through its gateway). */
  probeHost?: string;
  /** The IPv4 range per-job and per-team bridge networks take their subnets from. */
  subnetPool?: string;
  /** auto: Swarm when the engine is a Swarm manager, plain Docker otherwise. */
  backend: "auto" | "docker" | "swarm";
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** BullMQ's key prefix, the same as the server's. */
  prefix?: string;
  /** Called after every heartbeat the database accepted (the worker's container health check). */
  onHeartbeat?: () => void;
  heartbeatMs?: number;
  convergeMs?: number;
  reconcileMs?: number;
  startGraceMs?: number;
  retryFailedMs?: number;
  /** Networks kept ready for dedicated instances while any job is dedicated (default 64; 0: none). */
  networkSpares?: number;
  /** Containers created or replaced at once on this worker's engine (default 8). */
  deployConcurrency?: number;
}

/** Enough spare networks for a start-of-event rush of teams on one worker; more are made as they are used (INSTANCE_NETWORK_SPARES). */
export const DEFAULT_NETWORK_SPARES = 64;

export interface RunningTier {
  workerId: string;
  deployer: Deployer;
  converger: Converger;
  /** Stops cleanly: leaves the tier and removes this worker's units (others take its instances over). */
  stop(): Promise<void>;
  /** Stops as a crash would: no goodbye, units left running (for tests of failover). */
  kill(): Promise<void>;
}

export async function chooseDeployer(options: Pick<TierOptions, "docker" | "backend" | "deployment" | "bindAddress" | "publicHost" | "subnetPool" | "workerId">): Promise<Deployer> {
  let backend = options.backend;
  if (backend === "auto") {
    const info = (await options.docker.info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
    backend = info.Swarm?.LocalNodeState === "active" && info.Swarm.ControlAvailable ? "swarm" : "docker";
  }
  const engine = { workerId: options.workerId, deployment: options.deployment, bindAddress: options.bindAddress, publicHost: options.publicHost, ...(options.subnetPool && { subnetPool: options.subnetPool }) };
  return backend === "swarm" ? new SwarmDeployer(options.docker, engine) : new DockerDeployer(options.docker, engine);
}

/**
 * The challenge-server part of a worker: heartbeat, its own queue (woken by the server), a
 * converge tick for health checks, and the cluster-wide queue (plans and the periodic reconcile,
 * scheduled once for the whole tier by BullMQ).
 */
export async function startChallengeServerTier(options: TierOptions): Promise<RunningTier> {
  const { db, connection, workerId, log } = options;
  const deployer = await chooseDeployer(options);
  const converger = new Converger(db, deployer, {
    workerId,
    deployment: options.deployment,
    probeHost: options.probeHost ?? (options.bindAddress === "0.0.0.0" || options.bindAddress === "::" ? "127.0.0.1" : options.bindAddress),
    log,
    ...(options.startGraceMs !== undefined && { startGraceMs: options.startGraceMs }),
    ...(options.retryFailedMs !== undefined && { retryFailedMs: options.retryFailedMs }),
    networkSpares: options.networkSpares ?? DEFAULT_NETWORK_SPARES,
    ...(options.deployConcurrency !== undefined && { deployConcurrency: options.deployConcurrency }),
  });
  const announce = async () => {
    await heartbeat(db, { id: workerId, backend: deployer.backend, address: options.publicHost, capacity: options.capacity });
    options.onHeartbeat?.();
  };
  await announce();

  const queueOptions = { connection, ...(options.prefix !== undefined && { prefix: options.prefix }) };
  const producer = new JobProducer(connection, {
    ...(options.prefix !== undefined && { prefix: options.prefix }),
    onError: (error) => log.warn({ err: error }, "queue connection error"),
  });
  const wake = async (ids: Iterable<string>) => {
    for (const id of ids) {
      if (id === workerId) {
        void converger
          .startPending()
          .then((started) => (started === 0 ? converger.run() : undefined))
          .catch((error: unknown) => log.warn({ err: error }, "could not start waiting instances"));
      }
      else await producer.wakeWorker(id).catch((error: unknown) => log.warn({ err: error, worker: id }, "could not wake a worker"));
    }
  };

  // A wake-up starts waiting instances at once; one that started nothing (a job removed, an
  // instance expired) runs a full pass, which removes what nobody wants.
  const own = new Worker(workerQueueName(workerId), async (job) => {
    ZWorkerTask.parse(job.data);
    if ((await converger.startPending()) === 0) await converger.run();
  }, { ...queueOptions, concurrency: 4 });
  const cluster = new Worker(QUEUES.challengeServers, async (job) => {
    const task = parseJob(QUEUES.challengeServers, job.data);
    await wake(task.action === "plan" ? await planJob(db, task.jobId) : await reconcile(db));
  }, { ...queueOptions, concurrency: 1 });
  for (const w of [own, cluster]) w.on("failed", (job, err) => log.warn({ queue: w.name, jobId: job?.id, err }, "challenge-server task failed"));

  const scheduler = new Queue(QUEUES.challengeServers, queueOptions);
  await scheduler.upsertJobScheduler("reconcile", { every: options.reconcileMs ?? 5000 }, { name: "reconcile", data: { action: "reconcile" }, opts: { removeOnComplete: true, removeOnFail: 100 } });

  // Heartbeats in flight: stopping waits for them, or one landing after leave() (or after a
  // crash) would mark the worker live again for the staleness window.
  const heartbeats = new Set<Promise<void>>();
  const beat = () => {
    const pending: Promise<void> = announce()
      .catch((error: unknown) => log.warn({ err: error }, "heartbeat failed"))
      .finally(() => heartbeats.delete(pending));
    heartbeats.add(pending);
  };
  const timers = [setInterval(beat, options.heartbeatMs ?? 2000), setInterval(() => void converger.run(), options.convergeMs ?? 2000)];
  void converger.run();
  log.info({ worker: workerId, backend: deployer.backend, deployment: options.deployment }, "challenge-server worker started");

  const halt = async () => {
    for (const timer of timers) clearInterval(timer);
    converger.halt();
    await Promise.all([own.close(), cluster.close(), scheduler.close(), producer.close(), ...heartbeats]);
  };
  return {
    workerId,
    deployer,
    converger,
    async stop() {
      await halt();
      await converger.idle();
      await leave(db, workerId);
      const units = await deployer.list().catch((error: unknown) => {
        log.warn({ err: error }, "could not list this worker's units to remove them");
        return [];
      });
      for (const unit of units) {
        if (unit.labels[LABELS.worker] === workerId) await deployer.remove(unit.name).catch(() => undefined);
      }
      // Every other worker counts as live here: a stopping worker removes only its own spares.
      await deployer.prepare?.(0, async () => () => true, () => true).catch((error: unknown) => log.warn({ err: error }, "could not remove this worker's spare networks"));
    },
    async kill() {
      await halt();
      await converger.idle();
    },
  };
}
