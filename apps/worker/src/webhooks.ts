import type { Db } from "@flagship/db";
import type { WebhookJob } from "@flagship/jobs";

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
