import {
  AppError,
  CONFIG_SCHEMA,
  type Config,
  type ConfigKey,
  isConfigKey,
  parseInput,
  readLenient,
  scheduleProblems,
  STAFF_ONLY_CONFIG_KEYS,
  TIME_CONFIG_KEYS,
  validationError,
} from "@flagship/shared";
import { Prisma } from "@flagship/db";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import { EVENT_CODES } from "../events/publisher.ts";
import type { StaffContext } from "../guards.ts";

/**
 * Sets one key (staff only), audited as set_config with `{key, old_value, new_value}` (upstream's
 * shape, which RACTF's client reads). A key we know is checked by its schema; any other key is
 * stored as given, as upstream does (RACTF's client saves `enable_force_admin_2fa ` with a trailing
 * space on every save), and returned with the configuration.
 */
export async function setConfigValue(ctx: StaffContext, key: string, value: unknown): Promise<unknown> {
  if (key.length > MAX_KEY_LENGTH) throw AppError.field("max_length", "key", `Ensure this field has no more than ${MAX_KEY_LENGTH} characters.`);
  if (value === undefined) throw AppError.field("required", "value", "This field is required");
  let stored: unknown;
  let old: unknown;
  if (isConfigKey(key)) {
    const parsed = CONFIG_SCHEMA[key].safeParse(readLenient(CONFIG_SCHEMA[key], value));
    if (!parsed.success) throw validationError(parsed.error.issues.length ? withPath(parsed.error) : parsed.error, { value });
    stored = parsed.data;
    old = await ctx.config.get(key);
  } else {
    stored = value;
    old = (await ctx.config.unknownKeys())[key] ?? null;
  }
  await ctx.db.$transaction(async (tx) => {
    // JSON null is stored as a JSON value, not as a missing one.
    const json = (stored === null ? Prisma.JsonNull : stored) as Prisma.InputJsonValue;
    await tx.config.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
    await writeAudit(tx, ctx.actor, "set_config", { key, old_value: old, new_value: stored });
  });
  await publishConfigChange(ctx, [key]);
  return stored;
}

/**
 * After a committed config write: every copy drops its cached config (and what is built on it),
 * and every open page hears which public keys changed (event 9), so countdowns, the lock page, the
 * projector and the freeze notices follow a moved schedule or a revealed board without a reload.
 * Staff-only keys are named to staff sockets only.
 */
export async function publishConfigChange(ctx: Pick<Context, "config" | "events">, keys: readonly string[]): Promise<void> {
  ctx.config.invalidate();
  for (const key of keys) await ctx.events.publish({ kind: "internal", name: "config_changed", data: { key } });
  const staffOnly = (key: string) => isConfigKey(key) && STAFF_ONLY_CONFIG_KEYS.has(key);
  const shown = keys.filter((key) => !staffOnly(key));
  const hidden = keys.filter(staffOnly);
  if (shown.length > 0) await ctx.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: EVENT_CODES.configUpdate, keys: shown } });
  if (hidden.length > 0) await ctx.events.publish({ kind: "socket", audience: { staff: true }, payload: { event_code: EVENT_CODES.configUpdate, keys: hidden } });
}

/** Config keys are path segments and table keys: long enough for any real name, short enough to list. */
const MAX_KEY_LENGTH = 100;

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
  assertPossibleSchedule(keys, old, { ...old, ...patch });
  await ctx.db.$transaction(async (tx) => {
    for (const key of keys) {
      const value = patch[key] as object;
      await tx.config.upsert({ where: { key }, create: { key, value }, update: { value } });
      await writeAudit(tx, ctx.actor, "set_config", { key, old_value: old[key], new_value: patch[key] });
    }
  });
  await publishConfigChange(ctx, keys);
  return patch;
}

const SCHEDULE_MESSAGES = {
  end_before_start: "The end must come after the start.",
  registration_end_before_start: "Registration must close after it opens.",
  registration_opens_after_end: "Registration must open before the event ends.",
  registration_closes_after_end: "Registration must close by the time the event ends.",
  freeze_outside_event: "The scoreboard freeze must fall between the event's start and end.",
} as const;

/**
 * The configuration form saves the event's times together, so the schedule they make is checked
 * here as the form checks it: an impossible one is refused under the field to fix, nothing saved.
 * (Single keys, as RACTF's client sets them one by one, are not: an intermediate state may be
 * impossible on the way to a possible one.)
 */
function assertPossibleSchedule(keys: ConfigKey[], old: Config, merged: Config): void {
  if (!keys.some((key) => TIME_CONFIG_KEYS.has(key))) return;
  // Only a problem this save makes: one already stored does not block saving something else.
  const before = scheduleProblems(old);
  const problems = Object.entries(scheduleProblems(merged)).filter(([key, problem]) => before[key as keyof typeof before] !== problem);
  if (problems.length === 0) return;
  const [field, problem] = problems[0]!;
  throw AppError.field("invalid", field, SCHEDULE_MESSAGES[problem as keyof typeof SCHEDULE_MESSAGES]);
}
