import { AppError, CONFIG_SCHEMA, isConfigKey, readLenient, validationError } from "@flagship/shared";
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
