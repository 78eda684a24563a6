import type { Context } from "../context.ts";
import { DirectWebhookSender, firstBloodMessage } from "./webhooks.ts";

/**
 * Posts the first-blood message to the configured webhook: through the worker's queue when the
 * server has one, else straight from this process. Delivery problems are logged, never thrown:
 * the solve has already been recorded.
 */
export async function announceFirstBlood(
  ctx: Pick<Context, "log"> & { webhooks?: Context["webhooks"] },
  url: string,
  input: Parameters<typeof firstBloodMessage>[0],
): Promise<void> {
  const sender = ctx.webhooks ?? new DirectWebhookSender(ctx.log);
  try {
    await sender.send(url, firstBloodMessage(input));
  } catch (error) {
    ctx.log.warn({ err: error, url }, "could not queue the first-blood webhook");
  }
}
