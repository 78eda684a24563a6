import { parseJob, QUEUES, redisConnection } from "@flagship/jobs";
import { Worker } from "bullmq";
import pino from "pino";
import { loadWorkerEnv } from "./env.ts";
import { postWebhook } from "./webhooks.ts";

async function main(): Promise<void> {
  let env;
  try {
    env = loadWorkerEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const log = pino({ level: env.LOG_LEVEL });
  const connection = redisConnection(env.REDIS_URL);

  const workers = [
    new Worker(QUEUES.webhooks, async (job) => postWebhook(parseJob(QUEUES.webhooks, job.data)), { connection, concurrency: env.CONCURRENCY }),
  ];
  for (const worker of workers) {
    worker.on("failed", (job, err) => log.warn({ queue: worker.name, jobId: job?.id, err }, "job failed"));
  }
  log.info({ queues: workers.map((w) => w.name) }, "worker started");

  // Finish the jobs in hand, then exit: BullMQ hands unfinished ones to another worker.
  const shutdown = async () => {
    log.info("worker shutting down");
    await Promise.all(workers.map((w) => w.close()));
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
}

void main();
