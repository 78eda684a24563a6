import {
  AppError,
  type Config,
  type ConfigKey,
  isConfigKey,
  STAFF_ONLY_CONFIG_KEYS,
  UNLISTED_CONFIG_KEYS,
} from "@flagship/shared";
import type { Context } from "../context.ts";

function visibleTo(ctx: Context, key: ConfigKey): boolean {
  return ctx.actor?.isStaff === true || !STAFF_ONLY_CONFIG_KEYS.has(key);
}

/** Every key the caller may read; staff-only keys are left out for everyone else. */
export async function listConfig(ctx: Context): Promise<Partial<Config>> {
  const config = await ctx.config.all();
  const out: Partial<Config> = {};
  for (const [key, value] of Object.entries(config) as [ConfigKey, unknown][]) {
    if (UNLISTED_CONFIG_KEYS.has(key) || !visibleTo(ctx, key)) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export async function getConfigValue(ctx: Context, key: string): Promise<unknown> {
  if (!isConfigKey(key) || UNLISTED_CONFIG_KEYS.has(key)) throw new AppError("not_found");
  if (!visibleTo(ctx, key)) throw new AppError("permission_denied");
  return ctx.config.get(key);
}

export async function getExperiments(ctx: Context): Promise<Record<string, boolean>> {
  return ctx.config.get("experiments");
}
