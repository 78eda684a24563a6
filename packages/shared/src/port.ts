import { z } from "zod";
import { CHALLENGE_FIELDS, ZFileInput } from "./challenges.ts";
import { CONFIG_SCHEMA } from "./config.ts";
import { flagMetadataError } from "./flags.ts";
import { unlockChallengeIds } from "./unlocks.ts";

/**
 * Import and export of challenges, categories and whole events as JSON, and the CSV exports.
 * The same validators run in the browser (to answer at once) and on the server (which decides).
 */

export const PORT_MESSAGES = {
  invalidChallenge: "Invalid challenge data.",
  invalidCategory: "Invalid category data.",
  invalidEvent: "Invalid event data.",
  parseFailed: "Failed to parse JSON.",
} as const;

/** The keys a challenge must carry to be imported (the staff spec's list). */
export const CHALLENGE_IMPORT_KEYS = [
  "name",
  "description",
  "challenge_type",
  "challenge_metadata",
  "flag_type",
  "author",
  "score",
  "unlocks",
  "flag_metadata",
  "hints",
  "files",
] as const;

export const CATEGORY_IMPORT_KEYS = ["name", "contained_type", "description", "challenges"] as const;

/** The most challenges one import may carry; far above any real event, low enough to bound work. */
export const MAX_IMPORT_CHALLENGES = 5000;
export const MAX_IMPORT_CATEGORIES = 200;

/** Flag metadata may arrive as a JSON string (as the editor's text field holds it). */
export function parseFlagMetadata(value: unknown): { ok: true; value: Record<string, unknown> | "" } | { ok: false } {
  if (typeof value !== "string") {
    return typeof value === "object" && value !== null && !Array.isArray(value) ? { ok: true, value: value as Record<string, unknown> } : { ok: false };
  }
  if (value.trim() === "") return { ok: true, value: "" };
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? { ok: true, value: parsed as Record<string, unknown> } : { ok: false };
  } catch {
    return { ok: false };
  }
}

const flagMetadata = z.preprocess((value) => {
  const parsed = parseFlagMetadata(value);
  if (!parsed.ok) return value;
  return parsed.value === "" ? {} : parsed.value;
}, CHALLENGE_FIELDS.flag_metadata);

/**
 * A hint in an export: no id, no `used`, no `challenge`. Its requirements (the hints a team must
 * have used first) are positions in the challenge's own list of hints, counted from 0, as hint
 * ids mean nothing in another event. Hints without text are skipped on import, and so are
 * requirements of them.
 */
const exportedHint = z.object({
  name: z.string().trim().min(1).max(255),
  penalty: z.number().int().min(0).max(1_000_000).default(0),
  text: z.string().max(20_000).optional(),
  requirements: z.array(z.number().int().min(0)).max(100).default([]),
});

const exportedHints = z
  .array(exportedHint)
  .max(100)
  .superRefine((hints, ctx) => {
    hints.forEach((hint, index) => {
      for (const position of hint.requirements) {
        if (position >= hints.length) ctx.addIssue({ code: "custom", path: [index, "requirements"], message: `Requires hint ${position}, but the challenge has ${hints.length} (counted from 0).` });
        else if (position === index) ctx.addIssue({ code: "custom", path: [index, "requirements"], message: "A hint cannot require itself." });
      }
    });
  })
  .transform((hints) => {
    const kept = new Map<number, number>();
    hints.forEach((hint, index) => {
      if (hint.text !== undefined && hint.text !== "") kept.set(index, kept.size);
    });
    return hints
      .filter((_hint, index) => kept.has(index))
      .map((h) => ({ name: h.name, penalty: h.penalty, text: h.text ?? "", requirements: [...new Set(h.requirements.flatMap((p) => (kept.has(p) ? [kept.get(p)!] : [])))] }));
  });

const challengeData = {
  name: CHALLENGE_FIELDS.name,
  description: CHALLENGE_FIELDS.description,
  challenge_type: CHALLENGE_FIELDS.challenge_type,
  challenge_metadata: CHALLENGE_FIELDS.challenge_metadata,
  flag_type: CHALLENGE_FIELDS.flag_type,
  flag_metadata: flagMetadata,
  author: CHALLENGE_FIELDS.author,
  score: CHALLENGE_FIELDS.score,
  /** Ids of the challenges this one unlocks; derived on export, informational on import. */
  unlocks: z.array(z.number().int()).max(MAX_IMPORT_CHALLENGES),
  hints: exportedHints,
  files: z.array(ZFileInput).max(100),
  points_type: CHALLENGE_FIELDS.points_type.default("basic"),
  unlock_requirements: CHALLENGE_FIELDS.unlock_requirements.default(""),
  hidden: CHALLENGE_FIELDS.hidden.default(false),
  maintenance: CHALLENGE_FIELDS.maintenance.default(false),
  tiebreaker: CHALLENGE_FIELDS.tiebreaker.default(true),
  post_score_explanation: CHALLENGE_FIELDS.post_score_explanation.default(""),
  attempt_limit: CHALLENGE_FIELDS.attempt_limit.default(null),
  tags: CHALLENGE_FIELDS.tags.default([]),
  /** When the challenge is released to players, or null (exports before schedules have none). */
  scheduled_at: CHALLENGE_FIELDS.scheduled_at.default(null),
  /**
   * The challenge suggested after a solve, by the id it has in the same file; linked on import
   * when the import brings that challenge, else left unset (as a single challenge's always is).
   */
  next_challenge: CHALLENGE_FIELDS.next_challenge.default(null),
};

function checkFlag(value: { flag_type: string; flag_metadata: Record<string, unknown> }, ctx: z.RefinementCtx): void {
  const message = flagMetadataError(value.flag_type, value.flag_metadata);
  if (message) ctx.addIssue({ code: "custom", path: ["flag_metadata"], message });
}

export const ZChallengeData = z.object(challengeData).superRefine(checkFlag);
export type ChallengeData = z.infer<typeof ZChallengeData>;

const ZCategoryChallenge = z.object({ id: z.number().int().positive(), ...challengeData }).superRefine(checkFlag);
export type CategoryChallengeData = z.infer<typeof ZCategoryChallenge>;

const categoryData = {
  name: z.string().trim().min(1).max(255),
  contained_type: CHALLENGE_FIELDS.challenge_type,
  description: z.string().max(100_000),
  display_order: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  metadata: z.record(z.string(), z.unknown()).default({}),
  challenges: z.array(ZCategoryChallenge).max(MAX_IMPORT_CHALLENGES),
};

/** Ids must be unique and every unlock must name one of them. */
function checkUnlockRefs(challenges: readonly { id: number; unlock_requirements: string }[], ctx: z.RefinementCtx, path: (string | number)[]): void {
  const ids = new Set<number>();
  challenges.forEach((challenge, index) => {
    if (ids.has(challenge.id)) ctx.addIssue({ code: "custom", path: [...path, index, "id"], message: `Duplicate challenge id ${challenge.id}.` });
    ids.add(challenge.id);
  });
  challenges.forEach((challenge, index) => {
    for (const id of unlockChallengeIds(challenge.unlock_requirements)) {
      if (!ids.has(id)) ctx.addIssue({ code: "custom", path: [...path, index, "unlock_requirements"], message: `Unlock refers to challenge ${id}, which is not in the import.` });
    }
  });
}

export const ZCategoryData = z.object(categoryData).superRefine((value, ctx) => checkUnlockRefs(value.challenges, ctx, ["challenges"]));
export type CategoryData = z.infer<typeof ZCategoryData>;

/**
 * A whole event (the event.json of an event archive): its configuration, each key checked by its
 * own schema and an unknown key refused, and its categories, whose challenges' ids are unique
 * across the event.
 */
export const ZEventData = z
  .object({
    version: z.literal(1),
    config: z.object(CONFIG_SCHEMA).partial().strict(),
    categories: z.array(z.object(categoryData)).max(MAX_IMPORT_CATEGORIES),
  })
  .superRefine((value, ctx) => {
    const all = value.categories.flatMap((c) => c.challenges);
    if (all.length > MAX_IMPORT_CHALLENGES) ctx.addIssue({ code: "custom", path: ["categories"], message: `At most ${MAX_IMPORT_CHALLENGES} challenges.` });
    checkUnlockRefs(all, ctx, ["challenges"]);
  });
export type EventData = z.infer<typeof ZEventData>;

const MB = 1024 * 1024;

/** What an event archive may hold; anything beyond is refused before a byte is stored. */
export const EVENT_ARCHIVE_LIMITS = {
  /** The compressed archive as uploaded. */
  maxArchiveBytes: 1024 * MB,
  /** Entries of any kind (files and folders). */
  maxEntries: 10_000,
  /** One stored file (as large as an upload may be). */
  maxFileBytes: 100 * MB,
  /** event.json. */
  maxManifestBytes: 64 * MB,
  /** Everything once decompressed. */
  maxTotalBytes: 2048 * MB,
} as const;

export type PortResult<T> = { ok: true; data: T } | { ok: false; message: string; details: Record<string, string[]> };

function missingKeys(value: unknown, keys: readonly string[]): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [...keys];
  return keys.filter((key) => !Object.hasOwn(value, key));
}

function validate<T>(schema: z.ZodType<T>, value: unknown, message: string, missing: string[]): PortResult<T> {
  if (missing.length > 0) return { ok: false, message, details: Object.fromEntries(missing.map((k) => [k, ["This field is required"]])) };
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const details: Record<string, string[]> = {};
  for (const issue of result.error.issues) (details[issue.path.join(".") || "non_field_errors"] ??= []).push(issue.message);
  return { ok: false, message, details };
}

/** A challenge to import: every key of CHALLENGE_IMPORT_KEYS, each valid, else 'Invalid challenge data.' */
export function validateChallengeData(value: unknown): PortResult<ChallengeData> {
  return validate(ZChallengeData, value, PORT_MESSAGES.invalidChallenge, missingKeys(value, CHALLENGE_IMPORT_KEYS));
}

/**
 * A category to import: its own keys, every challenge with an id and the challenge keys, every
 * unlock naming a challenge of the category; else 'Invalid category data.'
 */
export function validateCategoryData(value: unknown): PortResult<CategoryData> {
  const missing = missingKeys(value, CATEGORY_IMPORT_KEYS);
  const challenges = (value as { challenges?: unknown } | null)?.challenges;
  if (missing.length === 0 && Array.isArray(challenges)) {
    challenges.forEach((challenge, index) => {
      for (const key of missingKeys(challenge, ["id", ...CHALLENGE_IMPORT_KEYS])) missing.push(`challenges.${index}.${key}`);
    });
  }
  return validate(ZCategoryData, value, PORT_MESSAGES.invalidCategory, missing);
}

export function validateEventData(value: unknown): PortResult<EventData> {
  return validate(ZEventData, value, PORT_MESSAGES.invalidEvent, missingKeys(value, ["version", "config", "categories"]));
}

/** JSON text from a file, or 'Failed to parse JSON.' */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: PORT_MESSAGES.parseFailed };
  }
}

/**
 * Rewrites an unlock expression's challenge ids through `map` (ids without an entry stay as
 * they are). Whitespace is normalised to single spaces.
 */
export function remapUnlock(expression: string, map: ReadonlyMap<number, number>): string {
  return expression
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => (/^\d+$/.test(word) ? String(map.get(Number(word)) ?? word) : word))
    .join(" ");
}

/** One CSV line per row, quoted where needed (RFC 4180), with a header row. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (value: unknown): string => {
    const text = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
    // A leading =, +, - or @ would be run as a formula by spreadsheet programs.
    const safe = typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}

export const PLAYER_CSV_COLUMNS = [
  "id",
  "username",
  "email",
  "email verified",
  "date joined",
  "active",
  "visible",
  "staff",
  "team id",
  "points",
  "leaderboard points",
  "reddit",
  "twitter",
  "discord",
  "discord id",
  "bio",
  "solves",
] as const;
export const TEAM_CSV_COLUMNS = ["id", "name", "visible", "owner", "password", "members", "solves"] as const;
export const TEAM_LEADERBOARD_CSV_COLUMNS = ["team name", "points"] as const;
export const USER_LEADERBOARD_CSV_COLUMNS = ["username", "points"] as const;
