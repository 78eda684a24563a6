import { JobProducer, QUEUES, redisConnection } from "@flagship/jobs";
import type { Db } from "@flagship/db";
import { WORKER_STALE_SECONDS } from "@flagship/shared";
import type { Logger } from "../context.ts";
import type { TierQueueView } from "./overview.ts";

/**
 * The server's side of the worker tier: it only enqueues. Planning a job and waking the worker
 * that owns an instance are hints: a worker's own ticks catch up if a message is lost, so a
 * broker outage never turns a committed change into an error.
 */
export interface ChallengeServerTier {
  plan(jobId: number): void;
  /** Runs the tier's periodic pass now (after a drain, say). */
  reconcile(): void;
  wake(workerIds: Iterable<string>): void;
  /** The challenge-server queue's jobs by state, for the staff console; null when Redis does not answer in time. */
  queueState(): Promise<TierQueueView | null>;
  close(): Promise<void>;
}

const ENQUEUE_TIMEOUT_MS = 2000;

export class QueueChallengeServerTier implements ChallengeServerTier {
  private readonly producer: JobProducer;

  constructor(
    redisUrl: string,
    private readonly log: Logger,
    prefix?: string,
  ) {
    this.producer = new JobProducer(
      { ...(redisConnection(redisUrl) as object), enableOfflineQueue: false },
      { ...(prefix !== undefined && { prefix }), onError: (error) => log.warn({ err: error }, "challenge-server queue connection error") },
    );
  }

  async queueState(): Promise<TierQueueView | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ENQUEUE_TIMEOUT_MS);
    });
    const read = (async (): Promise<TierQueueView> => {
      const { oldestWaitingAt, ...counts } = await this.producer.inspect(QUEUES.challengeServers);
      return { ...counts, oldest_waiting_seconds: oldestWaitingAt === null ? null : Math.max(0, Math.round((Date.now() - oldestWaitingAt) / 1000)) };
    })().catch((error: unknown) => {
      this.log.warn({ err: error }, "could not read the challenge-server queue");
      return null;
    });
    try {
      return await Promise.race([read, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  plan(jobId: number): void {
    this.quietly(this.producer.enqueue(QUEUES.challengeServers, { action: "plan", jobId }), { jobId });
  }

  reconcile(): void {
    this.quietly(this.producer.enqueue(QUEUES.challengeServers, { action: "reconcile" }), {});
  }

  wake(workerIds: Iterable<string>): void {
    for (const id of new Set(workerIds)) this.quietly(this.producer.wakeWorker(id), { workerId: id });
  }

  private quietly(promise: Promise<void>, context: Record<string, unknown>): void {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error("queue did not answer in time")), ENQUEUE_TIMEOUT_MS);
    });
    void Promise.race([promise, timeout])
      .catch((error: unknown) => this.log.warn({ ...context, err: error }, "challenge-server message not sent; the workers' own ticks will catch up"))
      .finally(() => clearTimeout(timer));
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}

export function createChallengeServerTier(options: { redisUrl?: string | undefined; log: Logger; prefix?: string }): ChallengeServerTier | undefined {
  return options.redisUrl ? new QueueChallengeServerTier(options.redisUrl, options.log, options.prefix) : undefined;
}

export interface LiveWorker {
  id: string;
  backend: string;
  address: string;
  capacity: number;
  load: number;
  /** Staff are draining it: it takes no new instances and its instances move to other workers. */
  draining: boolean;
  /** Its engine does not answer: it takes no new instances until it does. */
  engine_lost: boolean;
}

/** Workers with a recent heartbeat and how many instances each runs, judged by the database's clock. */
export async function liveWorkers(db: Pick<Db, "$queryRaw">): Promise<LiveWorker[]> {
  const rows = await db.$queryRaw<{ id: string; backend: string; address: string; capacity: number; load: bigint; draining: boolean; engine_lost: boolean }[]>`
    SELECT w.id, w.backend, w.address, w.capacity, COUNT(i.id)::bigint AS load, w.draining, (w.engine_lost_at IS NOT NULL) AS engine_lost
    FROM challenge_server_workers w
    LEFT JOIN challenge_server_instances i ON i.worker_id = w.id
    WHERE w.last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS})
    GROUP BY w.id
    ORDER BY w.id`;
  return rows.map((r) => ({ ...r, load: Number(r.load) }));
}

/** Whether a live worker may take a new instance: not drained, and its engine answers. */
export function placeable(worker: LiveWorker): boolean {
  return !worker.draining && !worker.engine_lost;
}

const LIVENESS_TTL_MS = 1000;
const livenessCache = new WeakMap<Db, { at: number }>();

/**
 * Whether any worker is alive. A yes is cached for a second per database so hot requests stay
 * cheap; a no is not cached, so a worker that has just started is used at once (a cached no
 * refused instances for up to a second after the first heartbeat).
 */
export async function anyWorkerAlive(db: Db): Promise<boolean> {
  const cached = livenessCache.get(db);
  if (cached && Date.now() - cached.at < LIVENESS_TTL_MS) return true;
  const rows = await db.$queryRaw<{ alive: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM challenge_server_workers WHERE last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS})) AS alive`;
  const alive = rows[0]?.alive === true;
  if (alive) livenessCache.set(db, { at: Date.now() });
  else livenessCache.delete(db);
  return alive;
}
