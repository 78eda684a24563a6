import type { Context } from "../context.ts";
import { DirectWebhookSender, firstBloodMessage } from "./webhooks.ts";

/**
 * Posts the first-blood message to the configured webhook: through the worker's queue when the
 * server has one, else straight from this process. The solve has already been recorded, so this
 * never waits for the queue's broker (which may be down) and never throws: problems are logged.
 */
export async function announceFirstBlood(
  ctx: Pick<Context, "log"> & { webhooks?: Context["webhooks"] },
  url: string,
  input: Parameters<typeof firstBloodMessage>[0],
): Promise<void> {
  const sender = ctx.webhooks ?? new DirectWebhookSender(ctx.log);
  let sending: Promise<void>;
  try {
    sending = sender.send(url, firstBloodMessage(input));
  } catch (error) {
    sending = Promise.reject(error as Error);
  }
  sending.catch((error: unknown) => ctx.log.warn({ err: error, url }, "could not queue the first-blood webhook"));
}
