import { adoptParked, DEFAULT_ENGINE_GRACE_SECONDS, heartbeat, leave, planJob, reconcile } from "@flagship/api";
import type { Db } from "@flagship/db";
import { JobProducer, parseJob, QUEUES, workerQueueName, ZWorkerTask } from "@flagship/jobs";
import { type ConnectionOptions, Queue, Worker } from "bullmq";
import { randomBytes } from "node:crypto";
import { WORKER_STALE_SECONDS } from "@flagship/shared";
import type Docker from "dockerode";
import { Converger } from "./converger.ts";
import { type Deployer, engineUnreachable, LABELS } from "./deployer.ts";
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
  /**
   * Seconds a cleanly stopped worker's containers and instances wait for a worker restarting on
   * the same engine to adopt them (WORKER_RESTART_GRACE); 0: they move to other workers at once.
   */
  restartGraceSeconds?: number;
  /**
   * Take over a parked worker of the same engine (its id, instances and containers) instead of
   * starting as `workerId`: what a worker without an explicit WORKER_ID does.
   */
  adopt?: boolean;
  /** Seconds the engine may stay unreachable before this worker's instances are re-created elsewhere (ENGINE_LOSS_GRACE). */
  engineGraceSeconds?: number;
}

/** Enough spare networks for a start-of-event rush of teams on one worker; more are made as they are used (INSTANCE_NETWORK_SPARES). */
export const DEFAULT_NETWORK_SPARES = 64;

export interface RunningTier {
  workerId: string;
  deployer: Deployer;
  converger: Converger;
  /** The engine's own id ("" when it did not answer at start). */
  engine: string;
  /** Whether the engine answered the last ping. */
  engineUp(): boolean;
  /** When the database last accepted this worker's heartbeat (ms since the epoch); null before the first. */
  lastHeartbeat(): number | null;
  /**
   * Stops cleanly: takes no more work and leaves its containers running and its instances in
   * place for `restartGraceSeconds`, for a worker restarting on the same engine to adopt (with no
   * grace they move to other workers at once, and the units of a worker gone are removed).
   */
  stop(): Promise<void>;
  /** Stops and removes every unit of this worker from the engine (its instances move at once). */
  retire(): Promise<void>;
  /** Stops as a crash would: no goodbye, units left running (for tests of failover). */
  kill(): Promise<void>;
}

export async function chooseDeployer(options: Pick<TierOptions, "docker" | "backend" | "deployment" | "bindAddress" | "publicHost" | "subnetPool" | "workerId">): Promise<Deployer> {
  let backend = options.backend;
  if (backend === "auto") {
    const info = (await options.docker.info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
    backend = info.Swarm?.LocalNodeState === "active" && info.Swarm.ControlAvailable ? "swarm" : "docker";
  }
  return makeDeployer(options, backend);
}

function makeDeployer(options: Pick<TierOptions, "docker" | "deployment" | "bindAddress" | "publicHost" | "subnetPool" | "workerId">, backend: "docker" | "swarm"): Deployer {
  const engine = { workerId: options.workerId, deployment: options.deployment, bindAddress: options.bindAddress, publicHost: options.publicHost, ...(options.subnetPool && { subnetPool: options.subnetPool }) };
  return backend === "swarm" ? new SwarmDeployer(options.docker, engine) : new DockerDeployer(options.docker, engine);
}

/**
 * The challenge-server part of a worker: heartbeat, its own queue (woken by the server), a
 * converge tick for health checks, and the cluster-wide queue (plans and the periodic reconcile,
 * scheduled once for the whole tier by BullMQ).
 */
export async function startChallengeServerTier(options: TierOptions): Promise<RunningTier> {
  const { db, connection, log } = options;
  // The engine's id: a worker restarting on it adopts the instances a clean stop left there. An
  // engine that does not answer yet is not fatal: the worker reports it and takes no placements.
  const probe = makeDeployer(options, "docker");
  const engine = await probe.engineId().catch(() => "");
  const adopted = options.adopt ? await adoptParked(db, engine, options.workerId) : null;
  let workerId = adopted ?? options.workerId;
  if (options.adopt && !adopted) {
    // Its default id may be another worker's now (which adopted it): one of its own then.
    const taken = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM challenge_server_workers WHERE id = ${workerId} AND (last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS}) OR parked_until > now())`;
    if (taken.length > 0) workerId = `${workerId.slice(0, 57)}-${randomBytes(3).toString("hex")}`;
  }
  if (adopted) log.info({ worker: workerId }, "adopted the instances a worker stopped on this engine left running");
  const deployer = await chooseDeployer({ ...options, workerId });
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
  // Whether the engine answered the last ping. While it does not, the worker keeps heartbeating
  // (with the time it lost the engine) and takes no placements; see `heartbeat`.
  let engineUp = engine !== "";
  let stopWatching: (() => void) | null = null;
  const watchEngine = () => {
    stopWatching ??= deployer.watch?.((name) => void converger.died(name)) ?? null;
  };
  // A refused or missing socket is a lost engine at once; a slow answer (a busy host) only when
  // the next ping is slow too.
  let slowPings = 0;
  const ping = async () => {
    let up = true;
    try {
      await deployer.ping();
      slowPings = 0;
    } catch (error) {
      slowPings = engineUnreachable(error) ? 2 : slowPings + 1;
      up = slowPings < 2;
    }
    if (up !== engineUp) {
      if (up) log.info({ worker: workerId }, "the Docker engine answers again");
      else log.warn({ worker: workerId }, "the Docker engine does not answer: this worker takes no new instances until it does");
      engineUp = up;
      // Back: a full pass at once. Lost: a pass at once too, which health-checks the copies where
      // they were last seen, so a host that is gone has its teams moved without waiting a tick.
      void converger.run();
    }
  };
  let pinging: Promise<void> | null = null;
  let lastHeartbeat: number | null = null;
  const announce = async () => {
    // The ping runs beside the heartbeat, which reports the last ping's answer: a slow engine
    // never delays the heartbeat that keeps the worker's instances where they are.
    pinging ??= ping().finally(() => {
      pinging = null;
    });
    await heartbeat(db, { id: workerId, backend: deployer.backend, address: options.publicHost, capacity: options.capacity, engine, engineUp, engineGrace: options.engineGraceSeconds ?? DEFAULT_ENGINE_GRACE_SECONDS });
    lastHeartbeat = Date.now();
    options.onHeartbeat?.();
  };
  await ping();
  await announce();
  // The first heartbeat of a process puts a worker drained before back in service.
  await db.$executeRaw`UPDATE challenge_server_workers SET draining = false WHERE id = ${workerId} AND draining`;
  watchEngine();

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
    stopWatching?.();
    converger.halt();
    await Promise.all([own.close(), cluster.close(), scheduler.close(), producer.close(), ...heartbeats, pinging]);
  };
  /** Leaves at once and removes this worker's units and spare networks (its instances move at once). */
  const retire = async () => {
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
  };
  return {
    workerId,
    deployer,
    converger,
    engine,
    engineUp: () => engineUp,
    lastHeartbeat: () => lastHeartbeat,
    async stop() {
      await halt();
      await converger.idle();
      const grace = options.restartGraceSeconds ?? 0;
      if (grace === 0) return retire();
      await leave(db, workerId, grace);
      log.info({ worker: workerId, graceSeconds: grace }, "stopped: containers left running for a worker restarting on this engine to adopt");
    },
    async retire() {
      await halt();
      await converger.idle();
      await retire();
    },
    async kill() {
      await halt();
      await converger.idle();
    },
  };
}
