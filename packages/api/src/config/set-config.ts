import { AppError, CONFIG_SCHEMA, type Config, type ConfigKey, isConfigKey, parseInput, readLenient, validationError } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";

/** Sets one key (staff only), audited as set_config with the old and new values. */
export async function setConfigValue(ctx: StaffContext, key: string, value: unknown): Promise<unknown> {
  if (!isConfigKey(key)) throw new AppError("not_found");
  if (value === undefined) throw AppError.field("required", "value", "This field is required");
  const parsed = CONFIG_SCHEMA[key].safeParse(readLenient(CONFIG_SCHEMA[key], value));
  if (!parsed.success) throw validationError(parsed.error.issues.length ? withPath(parsed.error) : parsed.error, { value });
  const old = await ctx.config.get(key);
  await ctx.db.$transaction(async (tx) => {
    await tx.config.upsert({
      where: { key },
      create: { key, value: parsed.data as object },
      update: { value: parsed.data as object },
    });
    await writeAudit(tx, ctx.actor, "set_config", { key, old, new: parsed.data });
  });
  ctx.config.invalidate();
  await ctx.events.publish({ kind: "internal", name: "config_changed", data: { key } });
  return parsed.data;
}

/** Issues about the value itself are reported under the `value` field. */
function withPath<E extends { issues: { path: PropertyKey[] }[] }>(error: E): E {
  for (const issue of error.issues) issue.path = ["value", ...issue.path];
  return error;
}

/** Any subset of the keys, each checked by its own schema; an unknown key is refused. */
const ZConfigPatch = z.object(CONFIG_SCHEMA).partial().strict();

/**
 * Sets several keys at once (the configuration form): every value is checked first, with errors
 * under each key's name, then all are written in one transaction, each audited as set_config.
 */
export async function setConfigValues(ctx: StaffContext, input: unknown): Promise<Partial<Config>> {
  const patch = parseInput(ZConfigPatch, input) as Partial<Config>;
  const keys = Object.keys(patch) as ConfigKey[];
  if (keys.length === 0) return {};
  const old = await ctx.config.all();
  await ctx.db.$transaction(async (tx) => {
    for (const key of keys) {
      const value = patch[key] as object;
      await tx.config.upsert({ where: { key }, create: { key, value }, update: { value } });
      await writeAudit(tx, ctx.actor, "set_config", { key, old: old[key], new: patch[key] });
    }
  });
  ctx.config.invalidate();
  for (const key of keys) await ctx.events.publish({ kind: "internal", name: "config_changed", data: { key } });
  return patch;
}
