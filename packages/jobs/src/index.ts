import { Queue, type ConnectionOptions } from "bullmq";
import { z } from "zod";

/** Queue names shared by the server (producer) and the worker (consumer). */
export const QUEUES = {
  webhooks: "flagship-webhooks",
  mail: "flagship-mail",
  challengeServers: "flagship-challenge-servers",
} as const;

export const ZWebhookJob = z.object({
  url: z.url({ protocol: /^https?$/ }),
  body: z.record(z.string(), z.unknown()),
});
export type WebhookJob = z.infer<typeof ZWebhookJob>;

export const ZMailJob = z.object({
  to: z.string().min(3),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
});
export type MailJob = z.infer<typeof ZMailJob>;

/**
 * Cluster-wide challenge-server work, taken by any worker: plan a job's instances after a change,
 * or the periodic reconcile (dead workers, expired instances, rolling swaps).
 */
export const ZChallengeServerTask = z.discriminatedUnion("action", [
  z.object({ action: z.literal("plan"), jobId: z.number().int().positive() }),
  z.object({ action: z.literal("reconcile") }),
]);
export type ChallengeServerTask = z.infer<typeof ZChallengeServerTask>;

/** Work for one worker's own Docker engine: make it run what the database says. */
export const ZWorkerTask = z.object({ action: z.literal("converge") });
export type WorkerTask = z.infer<typeof ZWorkerTask>;

/** Each worker consumes its own queue, so the server can wake the worker that owns an instance. */
export function workerQueueName(workerId: string): string {
  return `flagship-cs-worker-${workerId}`;
}

interface Payloads {
  [QUEUES.webhooks]: WebhookJob;
  [QUEUES.mail]: MailJob;
  [QUEUES.challengeServers]: ChallengeServerTask;
}

const SCHEMAS = {
  [QUEUES.webhooks]: ZWebhookJob,
  [QUEUES.mail]: ZMailJob,
  [QUEUES.challengeServers]: ZChallengeServerTask,
} as const;

export type QueueName = keyof Payloads;

/** Parses a job's data with its queue's schema, so a worker never trusts a malformed payload. */
export function parseJob<Q extends QueueName>(queue: Q, data: unknown): Payloads[Q] {
  return SCHEMAS[queue].parse(data) as Payloads[Q];
}

/** A typed producer: enqueue(QUEUES.webhooks, payload) validates before it sends. */
export class JobProducer {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workerQueues = new Map<string, Queue>();

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly options: {
      /** BullMQ's key prefix: installations (or test runs) sharing one Redis keep their queues apart. */
      prefix?: string;
      /** Hears the queues' connection errors (an unheard one would end the process). */
      onError?: (error: Error) => void;
    } = {},
  ) {}

  private queueOptions() {
    return { connection: this.connection, ...(this.options.prefix !== undefined && { prefix: this.options.prefix }) };
  }

  private readonly onError = (error: Error) => this.options.onError?.(error);

  private queue(queue: QueueName): Queue {
    let q = this.queues.get(queue);
    if (!q) {
      q = new Queue(queue, this.queueOptions());
      q.on("error", this.onError);
      this.queues.set(queue, q);
    }
    return q;
  }

  async enqueue<Q extends QueueName>(queue: Q, payload: Payloads[Q], options: { jobId?: string; attempts?: number; backoffMs?: number } = {}): Promise<void> {
    const data = parseJob(queue, payload);
    await this.queue(queue).add(queue, data, {
      attempts: options.attempts ?? 5,
      backoff: { type: "exponential", delay: options.backoffMs ?? 2000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
      ...(options.jobId !== undefined && { jobId: options.jobId }),
    });
  }

  /** A queue's jobs by state, and when the oldest waiting one was added (ms since the epoch; null: none waits). */
  async inspect(queue: QueueName): Promise<{ waiting: number; active: number; delayed: number; failed: number; oldestWaitingAt: number | null }> {
    const q = this.queue(queue);
    const counts = await q.getJobCounts("waiting", "active", "delayed", "failed");
    const [oldest] = await q.getJobs(["waiting"], 0, 0, true);
    return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0, oldestWaitingAt: oldest?.timestamp ?? null };
  }

  /** Wakes a worker: its converge pass runs now instead of at its next tick. */
  async wakeWorker(workerId: string): Promise<void> {
    const name = workerQueueName(workerId);
    let q = this.workerQueues.get(name);
    if (!q) {
      q = new Queue(name, this.queueOptions());
      q.on("error", this.onError);
      this.workerQueues.set(name, q);
    }
    await q.add("converge", ZWorkerTask.parse({ action: "converge" }), { removeOnComplete: true, removeOnFail: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values(), ...this.workerQueues.values()].map((q) => q.close()));
  }
}

/** BullMQ connection options from a redis:// URL. */
export function redisConnection(url: string): ConnectionOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(parsed.pathname.length > 1 && { db: Number(parsed.pathname.slice(1)) }),
    ...(parsed.protocol === "rediss:" && { tls: {} }),
    maxRetriesPerRequest: null,
  };
}
