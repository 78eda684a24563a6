import type { Countdown } from "@flagship/shared";
import type { Context } from "../context.ts";

export async function getCountdown(ctx: Context): Promise<Countdown> {
  const config = await ctx.config.all();
  return {
    countdown_timestamp: config.start_time,
    registration_open: config.register_start_time,
    competition_end: config.end_time,
    server_timestamp: new Date(ctx.now() * 1000).toISOString(),
  };
}
