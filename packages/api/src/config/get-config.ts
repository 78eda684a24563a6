import {
  AppError,
  type Config,
  type ConfigKey,
  isConfigKey,
  STAFF_ONLY_CONFIG_KEYS,
  UNLISTED_CONFIG_KEYS,
} from "@flagship/shared";
import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";

async function visibleTo(ctx: Context, key: ConfigKey): Promise<boolean> {
  return !STAFF_ONLY_CONFIG_KEYS.has(key) || (await hasStaffPowers(ctx));
}

/**
 * Every key the caller may read; staff-only keys are left out for everyone else, and unlisted
 * ones (the logo, which every page load would otherwise carry) for everyone.
 */
export async function listConfig(ctx: Context): Promise<Partial<Config>> {
  const config = await ctx.config.all();
  const staff = await hasStaffPowers(ctx);
  const out: Partial<Config> = {};
  for (const [key, value] of Object.entries(config) as [ConfigKey, unknown][]) {
    if ((STAFF_ONLY_CONFIG_KEYS.has(key) && !staff) || UNLISTED_CONFIG_KEYS.has(key)) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  for (const [key, value] of Object.entries(await ctx.config.unknownKeys())) {
    if (staff || !looksStaffOnly(key)) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** An unknown key spelled like a staff-only one (`enable_force_admin_2fa `) is kept from players like it. */
function looksStaffOnly(key: string): boolean {
  const near = key.trim().toLowerCase();
  return [...STAFF_ONLY_CONFIG_KEYS].some((staffOnly) => staffOnly === near);
}

export async function getConfigValue(ctx: Context, key: string): Promise<unknown> {
  if (!isConfigKey(key)) {
    const unknown = await ctx.config.unknownKeys();
    if (!Object.hasOwn(unknown, key)) throw new AppError("not_found");
    if (looksStaffOnly(key) && !(await hasStaffPowers(ctx))) throw new AppError("permission_denied");
    return unknown[key];
  }
  if (!(await visibleTo(ctx, key))) throw new AppError("permission_denied");
  return ctx.config.get(key);
}

export async function getExperiments(ctx: Context): Promise<Record<string, boolean>> {
  return ctx.config.get("experiments");
}
