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
