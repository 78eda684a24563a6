import { z } from "zod";
import { flagMetadataError, FLAG_TYPES, MAX_FLAG_LENGTH } from "./flags.ts";
import { POINTS_TYPES } from "./scoring.ts";
import { unlockError } from "./unlocks.ts";

/** Built-in category layouts; plugins may register more, so the server accepts any type name. */
export const CATEGORY_TYPES = ["jeopardy", "campaign"] as const;
/** Built-in challenge types. */
export const CHALLENGE_TYPES = ["default", "freeform", "longText", "code", "map"] as const;
/** Languages a code challenge may declare in challenge_metadata.code_language. */
export const CODE_LANGUAGES = ["python", "cpp", "gcc", "perl", "ruby", "java", "node", "nasm"] as const;

const typeName = z.string().trim().min(1).max(64).regex(/^[A-Za-z][\w-]*$/, { message: "Invalid type name." });
const jsonObject = z.record(z.string(), z.unknown());
/** Metadata objects; RACTF's client sends `null` for none, read as `{}`. */
const metadata = z
  .record(z.string(), z.unknown())
  .nullable()
  .transform((value) => value ?? {});

const unlockRequirements = z
  .string()
  .max(2000)
  .nullable()
  .superRefine((value, ctx) => {
    const message = unlockError(value);
    if (message) ctx.addIssue({ code: "custom", message, params: { code: "invalid" } });
  })
  .transform((value) => value ?? "");

/** A tag is a string or `{type, text}`; both are stored as `{type, text}`. */
const tag = z.union([
  z.string().trim().min(1).max(64).transform((text) => ({ type: "tag", text })),
  z.object({ type: z.string().trim().min(1).max(32).default("tag"), text: z.string().trim().min(1).max(64) }),
]);

const fileName = z.string().trim().min(1).max(255);
/**
 * Where a challenge file lives: an http(s) URL, or a path on this site (`/files/...`). Anything
 * else (`javascript:`, `data:`, `//elsewhere`) would run or load in the player's browser from a
 * link that looks like a download, so it is refused.
 */
export const FILE_URL_MESSAGE = "Enter an http or https URL, or a path on this site starting with /.";
export function isAllowedFileUrl(value: string): boolean {
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\");
  return /^https?:\/\/[^/\\\s?#@]+(?:[/?#][^\s]*)?$/i.test(value);
}
const fileUrl = z.string().trim().min(1).max(2000).refine(isAllowedFileUrl, { message: FILE_URL_MESSAGE });
const fileSize = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const ZFileInput = z.object({ name: fileName, url: fileUrl, size: fileSize.default(0) });

const hintName = z.string().trim().min(1).max(255);
const hintPenalty = z.number().int().min(0).max(1_000_000);
const hintText = z.string().max(20_000);
export const ZHintFields = z.object({ name: hintName, penalty: hintPenalty.default(0), text: hintText.default("") });

/** The Challenge entity's editable fields, shared by create, update and import. */
export const CHALLENGE_FIELDS = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(100_000),
  challenge_type: typeName,
  challenge_metadata: metadata,
  flag_type: z.enum(FLAG_TYPES),
  flag_metadata: jsonObject,
  author: z.string().max(255),
  score: z.number().int().min(0).max(1_000_000),
  points_type: z.enum(POINTS_TYPES),
  unlock_requirements: unlockRequirements,
  hidden: z.boolean(),
  maintenance: z.boolean(),
  tiebreaker: z.boolean(),
  post_score_explanation: z.string().max(100_000),
  attempt_limit: z.number().int().min(0).max(1_000_000).nullable(),
  tags: z.array(tag).max(50),
  /** The repository a challenge sync made it from ("" when made otherwise). */
  source: z.string().trim().max(500),
  /**
   * When the challenge is released (ISO-8601 with its offset, as ctfcli writes it): hidden from
   * players until then, then shown with no staff action. Null: no schedule.
   */
  /** The challenge suggested after a solve (ctfcli's `next`), by id; null: none. */
  next_challenge: z.number().int().positive().nullable(),
  scheduled_at: z.iso.datetime({ offset: true, message: "Enter a date and time in ISO-8601 form, such as 2026-05-01T18:00:00Z." }).nullable(),
};

/** Whether a challenge is released to players at `now` (seconds): not hidden, and its scheduled time, if any, has come. */
export function releasedToPlayers(challenge: { hidden: boolean; scheduledAt: Date | string | null }, nowSeconds: number): boolean {
  if (challenge.hidden) return false;
  if (challenge.scheduledAt === null) return true;
  return new Date(challenge.scheduledAt).getTime() <= nowSeconds * 1000;
}

/** Flag metadata must suit the flag type (regexes are vetted here, before they are ever run). */
function checkFlagMetadata(value: { flag_type?: string; flag_metadata?: Record<string, unknown> }, ctx: z.RefinementCtx): void {
  if (value.flag_type === undefined || value.flag_metadata === undefined) return;
  const message = flagMetadataError(value.flag_type, value.flag_metadata);
  if (message) ctx.addIssue({ code: "custom", path: ["flag_metadata"], message, params: { code: "invalid" } });
}

export const ZCreateChallengeInput = z
  .object({
    category: z.number().int().positive(),
    ...CHALLENGE_FIELDS,
    description: CHALLENGE_FIELDS.description.default(""),
    challenge_type: CHALLENGE_FIELDS.challenge_type.default("default"),
    challenge_metadata: CHALLENGE_FIELDS.challenge_metadata.default({}),
    flag_type: CHALLENGE_FIELDS.flag_type.default("plaintext"),
    flag_metadata: CHALLENGE_FIELDS.flag_metadata.default({}),
    author: CHALLENGE_FIELDS.author.default(""),
    points_type: CHALLENGE_FIELDS.points_type.default("basic"),
    unlock_requirements: unlockRequirements.default(""),
    hidden: CHALLENGE_FIELDS.hidden.default(false),
    maintenance: CHALLENGE_FIELDS.maintenance.default(false),
    tiebreaker: CHALLENGE_FIELDS.tiebreaker.default(true),
    post_score_explanation: CHALLENGE_FIELDS.post_score_explanation.default(""),
    attempt_limit: CHALLENGE_FIELDS.attempt_limit.default(null),
    source: CHALLENGE_FIELDS.source.default(""),
    scheduled_at: CHALLENGE_FIELDS.scheduled_at.default(null),
    next_challenge: CHALLENGE_FIELDS.next_challenge.default(null),
    tags: CHALLENGE_FIELDS.tags.default([]),
    files: z.array(z.union([z.number().int().positive(), ZFileInput])).max(100).default([]),
    hints: z.array(ZHintFields).max(100).default([]),
  })
  .superRefine(checkFlagMetadata);
export type CreateChallengeInput = z.infer<typeof ZCreateChallengeInput>;

/** PATCH: any subset; flag metadata is checked against the stored flag type by the server. */
export const ZUpdateChallengeInput = z.object({
  category: z.number().int().positive().optional(),
  ...Object.fromEntries(Object.entries(CHALLENGE_FIELDS).map(([k, v]) => [k, v.optional()])),
} as { category: z.ZodOptional<z.ZodNumber> } & { [K in keyof typeof CHALLENGE_FIELDS]: z.ZodOptional<(typeof CHALLENGE_FIELDS)[K]> });
export type UpdateChallengeInput = z.infer<typeof ZUpdateChallengeInput>;

export const ZCategoryInput = z.object({
  name: z.string().trim().min(1).max(255),
  contained_type: typeName.default("jeopardy"),
  description: z.string().max(100_000).default(""),
  display_order: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  metadata: metadata.default({}),
});
export type CategoryInput = z.infer<typeof ZCategoryInput>;

export const ZUpdateCategoryInput = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  contained_type: typeName.optional(),
  description: z.string().max(100_000).optional(),
  display_order: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  metadata: metadata.optional(),
});
export type UpdateCategoryInput = z.infer<typeof ZUpdateCategoryInput>;

export const ZCreateFileInput = ZFileInput.extend({ challenge: z.number().int().positive() });
// Updates carry no defaults: a field left out stays as it is.
export const ZUpdateFileInput = z.object({ name: fileName.optional(), url: fileUrl.optional(), size: fileSize.optional() });
/** Hints of the same challenge a team must have used before this one, by id. */
const hintRequirements = z.array(z.number().int().positive()).max(100);
export const ZCreateHintInput = ZHintFields.extend({ challenge: z.number().int().positive(), requirements: hintRequirements.default([]) });
export const ZUpdateHintInput = z.object({ name: hintName.optional(), penalty: hintPenalty.optional(), text: hintText.optional(), requirements: hintRequirements.optional() });

/** Ids are integers; REST clients sometimes send them as digit strings. */
const id = z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number().int().positive());

/** The flag is text, or `[lat, lon]` for a map challenge. */
export const ZSubmitFlagInput = z.object({
  challenge: id,
  flag: z.union([z.string().min(1).max(MAX_FLAG_LENGTH), z.array(z.number()).length(2)]),
});
export type SubmitFlagInput = z.infer<typeof ZSubmitFlagInput>;

export const ZVoteInput = z.object({ challenge: id, positive: z.boolean() });
export const ZFeedbackInput = z.object({ challenge: id, feedback: z.string().trim().min(1).max(10_000) });
export const ZUseHintInput = z.object({ id });
export const ZIdInput = z.object({ id });
