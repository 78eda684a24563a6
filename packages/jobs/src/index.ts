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

export const ZChallengeServerJob = z.object({ jobId: z.number().int().positive(), action: z.enum(["deploy", "reset", "remove"]), instanceId: z.number().int().positive().optional() });
export type ChallengeServerJob = z.infer<typeof ZChallengeServerJob>;

interface Payloads {
  [QUEUES.webhooks]: WebhookJob;
  [QUEUES.mail]: MailJob;
  [QUEUES.challengeServers]: ChallengeServerJob;
}

const SCHEMAS = {
  [QUEUES.webhooks]: ZWebhookJob,
  [QUEUES.mail]: ZMailJob,
  [QUEUES.challengeServers]: ZChallengeServerJob,
} as const;

export type QueueName = keyof Payloads;

/** Parses a job's data with its queue's schema, so a worker never trusts a malformed payload. */
export function parseJob<Q extends QueueName>(queue: Q, data: unknown): Payloads[Q] {
  return SCHEMAS[queue].parse(data) as Payloads[Q];
}

/** A typed producer: enqueue(QUEUES.webhooks, payload) validates before it sends. */
export class JobProducer {
  private readonly queues = new Map<QueueName, Queue>();

  /** `onError` hears the queues' connection errors (an unheard one would end the process). */
  constructor(
    private readonly connection: ConnectionOptions,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  async enqueue<Q extends QueueName>(queue: Q, payload: Payloads[Q], options: { jobId?: string } = {}): Promise<void> {
    const data = parseJob(queue, payload);
    let q = this.queues.get(queue);
    if (!q) {
      q = new Queue(queue, { connection: this.connection });
      q.on("error", this.onError);
      this.queues.set(queue, q);
    }
    await q.add(queue, data, {
      attempts: 5,
      backoff: { type: "exponential", delay: 2000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
      ...(options.jobId !== undefined && { jobId: options.jobId }),
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
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
