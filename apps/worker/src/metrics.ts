import type { Db } from "@flagship/db";
import { type ConnectionOptions, Queue } from "bullmq";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one worker, served on its own listener (METRICS_PORT). Counters of what
 * the converger does live in this module (one worker per process); the rest is read at each
 * scrape: queues from Redis, this worker's instances and drain from the database, the engine from
 * the tier. Labels stay bounded: queue names are the tier's own, jobs are the event's challenge
 * servers by name, states are the instance states.
 */
export const tierMetrics = new Registry();

/**
 * A deploy is a unit brought to run for instances not healthy yet (new, replaced, reset or retried):
 * succeeded once every copy answers, failed when the engine refused it (a pull or a create),
 * engine_unreachable when the engine did not answer, timed_out when a copy still did not answer
 * after the converger stopped following it (its health check goes on in later passes).
 */
export const deploys = new Counter({
  name: "flagship_deploys_total",
  help: "Challenge-server deploys by outcome: succeeded, failed, engine_unreachable or timed_out.",
  labelNames: ["outcome"] as const,
  registers: [tierMetrics],
});

/** Seconds; from a container on a cached image (well under a second) to a pull of a large image. */
export const deployDuration = new Histogram({
  name: "flagship_deploy_duration_seconds",
  help: "Time from a deploy's start until every copy answered (or the deploy ended otherwise), by outcome.",
  labelNames: ["outcome"] as const,
  buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
  registers: [tierMetrics],
});

/** died: the engine reported a copy stopped; silent: a running copy did not answer on its port past its grace. */
export const replacements = new Counter({
  name: "flagship_replica_replacements_total",
  help: "Challenge-server copies replaced by this worker, by reason: died (the container stopped) or silent (nothing answered on its port past the start grace).",
  labelNames: ["reason"] as const,
  registers: [tierMetrics],
});

/** The job states a queue reports (BullMQ's names). */
const QUEUE_STATES = ["waiting", "active", "delayed", "prioritized", "failed"] as const;

/**
 * The longest a scrape waits for Redis or PostgreSQL. A scrape that hung (BullMQ's connection
 * waits for Redis indefinitely) or failed would take every number down with it, and Prometheus
 * would report the worker itself down: what cannot be read in time is left out, and says so.
 */
const READ_TIMEOUT_MS = 2000;

function inTime<T>(read: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer in time")), READ_TIMEOUT_MS);
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

export interface WorkerMetricsOptions {
  db: Db;
  connection: ConnectionOptions;
  /** BullMQ's key prefix, the same as the server's. */
  prefix?: string;
  /** The shared queues to report (every worker reports the same numbers for these: take the max). */
  queues: string[];
  /** The challenge-server tier, when this worker runs one. */
  tier?: { workerId: string; engineUp(): boolean; engine: string };
  /** When the last heartbeat was accepted (ms since the epoch), for the heartbeat's age. */
  lastHeartbeat?: () => number | null;
}

/** The registry a worker's /metrics serves, and `close` for the queue connections it reads with. */
export function createWorkerMetrics(options: WorkerMetricsOptions): { registry: Registry; close(): Promise<void> } {
  const { db, tier } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const queues = options.queues.map((name) => new Queue(name, { connection: options.connection, ...(options.prefix !== undefined && { prefix: options.prefix }) }));

  const readQueues = async () => {
    const now = Date.now();
    return Promise.all(
      queues.map(async (queue) => {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        const [waiting] = await queue.getJobs(["waiting"], 0, 0, true);
        const active = await queue.getJobs(["active"], 0, -1, true);
        const started = Math.min(...active.map((job) => job.processedOn ?? job.timestamp));
        return {
          name: queue.name,
          counts,
          waitingAge: waiting ? Math.max(0, now - waiting.timestamp) / 1000 : 0,
          activeAge: active.length > 0 ? Math.max(0, now - started) / 1000 : 0,
        };
      }),
    );
  };
  // Both queue gauges come from one read a scrape (the first gauge collected makes it).
  let read: Promise<Awaited<ReturnType<typeof readQueues>> | null> | null = null;
  const queueState = () => {
    read ??= inTime(readQueues())
      .catch(() => null)
      .finally(() => setImmediate(() => (read = null)));
    return read;
  };
  new Gauge({
    name: "flagship_worker_redis_up",
    help: "1 when this worker read its queues from Redis at this scrape; 0 when Redis did not answer in time (the queue numbers are left out).",
    registers: [registry],
    async collect() {
      this.set((await queueState()) ? 1 : 0);
    },
  });
  new Gauge({
    name: "flagship_queue_jobs",
    help: "Jobs in a queue by state (waiting, active, delayed, prioritized, failed). Every worker reports the shared queues.",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      const state = await queueState();
      this.reset();
      for (const queue of state ?? []) for (const name of QUEUE_STATES) this.set({ queue: queue.name, state: name }, queue.counts[name] ?? 0);
    },
  });
  new Gauge({
    name: "flagship_queue_oldest_job_age_seconds",
    help: "Age of the oldest job waiting in a queue (since it was added), and of the longest running one (since it started); 0 when there is none.",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      const state = await queueState();
      this.reset();
      for (const queue of state ?? []) {
        this.set({ queue: queue.name, state: "waiting" }, queue.waitingAge);
        this.set({ queue: queue.name, state: "active" }, queue.activeAge);
      }
    },
  });

  if (tier) {
    new Gauge({
      name: "flagship_engine_up",
      help: "1 while this worker's container engine answers its pings; 0 while it does not (the worker takes no new instances, and past ENGINE_LOSS_GRACE its instances move).",
      labelNames: ["engine"] as const,
      registers: [registry],
      collect() {
        this.set({ engine: tier.engine.slice(0, 12) || "unknown" }, tier.engineUp() ? 1 : 0);
      },
    });
    new Gauge({
      name: "flagship_instances",
      // job_name, not job: Prometheus' own `job` label names the scrape job.
      help: "This worker's challenge-server instances by job (job_name) and state (pending, healthy, unhealthy, failed); kind tells shared replicas, dedicated team instances and warm ones apart.",
      labelNames: ["job_name", "state", "kind"] as const,
      registers: [registry],
      async collect() {
        const rows = await inTime(db.$queryRaw<{ job: string; state: string; kind: string; n: bigint }[]>`
          SELECT j.name AS job, i.status AS state,
                 CASE WHEN i.pooled THEN 'warm' WHEN i.team_id IS NOT NULL THEN 'dedicated' ELSE 'shared' END AS kind,
                 COUNT(*)::bigint AS n
          FROM challenge_server_instances i JOIN challenge_server_jobs j ON j.id = i.job_id
          WHERE i.worker_id = ${tier.workerId}
          GROUP BY 1, 2, 3`).catch(() => null);
        // Series of a job or state gone since the last scrape go too, rather than stay at their last value.
        this.reset();
        for (const row of rows ?? []) this.set({ job_name: row.job, state: row.state, kind: row.kind }, Number(row.n));
      },
    });
    new Gauge({
      name: "flagship_worker_draining",
      help: "1 while staff or an operator drain this worker (no new placements; its instances move to other workers).",
      registers: [registry],
      async collect() {
        const rows = await inTime(db.$queryRaw<{ draining: boolean }[]>`SELECT draining FROM challenge_server_workers WHERE id = ${tier.workerId}`).catch(() => null);
        if (rows) this.set(rows[0]?.draining ? 1 : 0);
      },
    });
    new Gauge({
      name: "flagship_drain_instances_remaining",
      help: "While this worker is drained: instances still on it, to move to other workers (0 when done, or when not draining).",
      registers: [registry],
      async collect() {
        const rows = await inTime(db.$queryRaw<{ n: bigint }[]>`
          SELECT COUNT(i.id)::bigint AS n FROM challenge_server_workers w JOIN challenge_server_instances i ON i.worker_id = w.id
          WHERE w.id = ${tier.workerId} AND w.draining`).catch(() => null);
        if (rows) this.set(Number(rows[0]?.n ?? 0));
      },
    });
  }
  const lastHeartbeat = options.lastHeartbeat;
  if (lastHeartbeat) {
    new Gauge({
      name: "flagship_worker_last_heartbeat_timestamp_seconds",
      help: "When the database last accepted this worker's heartbeat (seconds since the epoch); a worker whose heartbeats stop loses its instances to the others.",
      registers: [registry],
      collect() {
        const at = lastHeartbeat();
        if (at !== null) this.set(at / 1000);
      },
    });
  }

  return {
    registry: Registry.merge([registry, tierMetrics]),
    close: async () => {
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
