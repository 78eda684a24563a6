import type { Db } from "@flagship/db";
import { parseJob, QUEUES, type WebhookJob } from "@flagship/jobs";
import { type ConnectionOptions, Worker } from "bullmq";

/** Posts a Discord-compatible JSON message. A non-2xx answer throws, so BullMQ retries with back-off. */
export async function postWebhook(job: WebhookJob, fetchImpl: typeof fetch = fetch): Promise<void> {
  const response = await fetchImpl(job.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(job.body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`Webhook answered ${response.status}`);
}

/** A delivery that ran out of retries is kept in the staff outbox, so the message is not lost. */
export async function keepUndelivered(db: Db, job: WebhookJob, reason: string): Promise<void> {
  const host = new URL(job.url).host;
  await db.outboxMail.create({
    data: {
      to: `webhook ${host}`,
      subject: "Webhook not delivered",
      text: `The webhook at ${host} could not be delivered after several tries (${reason}).\n\nThe message:\n${JSON.stringify(job.body, null, 2)}`,
    },
    select: { id: true },
  });
}

/** Delivers the webhook queue: retried with back-off by BullMQ, kept in the outbox when it gives up. */
export function startWebhookWorker(options: {
  db: Db;
  connection: ConnectionOptions;
  prefix?: string;
  concurrency: number;
  log: { warn(obj: unknown, msg?: string): void };
}): Worker {
  const { db, log } = options;
  const worker = new Worker(QUEUES.webhooks, async (job) => postWebhook(parseJob(QUEUES.webhooks, job.data)), {
    connection: options.connection,
    concurrency: options.concurrency,
    ...(options.prefix !== undefined && { prefix: options.prefix }),
  });
  worker.on("failed", (job, err) => {
    log.warn({ queue: worker.name, jobId: job?.id, err }, "webhook delivery failed");
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      void keepUndelivered(db, parseJob(QUEUES.webhooks, job.data), err.message).catch((error: unknown) => log.warn({ err: error }, "could not keep an undelivered webhook"));
    }
  });
  return worker;
}
