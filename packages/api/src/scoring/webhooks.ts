import { JobProducer, QUEUES, redisConnection } from "@flagship/jobs";
import type { Logger } from "../context.ts";

/** Delivers outgoing webhooks (the first-blood message). */
export interface WebhookSender {
  send(url: string, body: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

const DIRECT_TIMEOUT_MS = 5000;

/**
 * Without Redis there is no worker tier: post from this process, without waiting for the answer,
 * so a slow receiver never delays a flag submission.
 */
export class DirectWebhookSender implements WebhookSender {
  constructor(private readonly log: Logger) {}

  async send(url: string, body: Record<string, unknown>): Promise<void> {
    void fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(DIRECT_TIMEOUT_MS),
    })
      .then((response) => {
        if (!response.ok) this.log.warn({ url, status: response.status }, "webhook answered with an error");
      })
      .catch((error: unknown) => this.log.warn({ url, err: error }, "webhook could not be delivered"));
  }

  async close(): Promise<void> {}
}

/** With Redis: a job for the worker, which retries with back-off. */
export class QueueWebhookSender implements WebhookSender {
  private readonly producer: JobProducer;

  constructor(redisUrl: string, log: Logger) {
    let warned = false;
    this.producer = new JobProducer(redisConnection(redisUrl), {
      onError: (error) => {
        if (!warned) log.warn({ err: error }, "the webhook queue cannot reach Redis");
        warned = true;
      },
    });
  }

  async send(url: string, body: Record<string, unknown>): Promise<void> {
    await this.producer.enqueue(QUEUES.webhooks, { url, body });
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}

export function createWebhookSender(options: { redisUrl?: string | undefined; log: Logger }): WebhookSender {
  return options.redisUrl ? new QueueWebhookSender(options.redisUrl, options.log) : new DirectWebhookSender(options.log);
}

/** A Discord-compatible first-blood message. */
export function firstBloodMessage(input: { challengeName: string; teamName: string; username: string; eventName: string }): Record<string, unknown> {
  const description = `**${input.teamName}** (${input.username}) drew first blood on **${input.challengeName}**.`;
  return {
    content: `First blood on ${input.challengeName}!`,
    embeds: [{ title: "First blood!", description, color: 0xcf222e, footer: { text: input.eventName }, timestamp: new Date().toISOString() }],
  };
}
