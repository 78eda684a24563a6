import { CODE_LANGUAGES, parseFlagMetadata, parseUnlock, unlockError, unlockPicks } from "@flagship/shared";
import { i18n } from "../../lib/i18n.ts";
import type { ChallengeView } from "../challenges/types.ts";
import type { FileDraft, HintDraft } from "./HintsFilesEditors.tsx";
import { parseJsonObject } from "./MarkdownField.tsx";
import "./texts.ts";

/** The challenge editor's state: every field of the Challenge entity, JSON fields as text. */
export interface ChallengeDraft {
  name: string;
  description: string;
  challenge_type: string;
  /** challenge_metadata without code_language and code_default, which have their own fields. */
  challenge_metadata: string;
  code_language: string;
  code_default: string;
  flag_type: string;
  flag_metadata: string;
  score: number;
  points_type: string;
  author: string;
  tags: { type: string; text: string }[];
  hidden: boolean;
  /** When players first see it, in seconds since the epoch; null: no schedule. */
  scheduled_at: number | null;
  maintenance: boolean;
  tiebreaker: boolean;
  attempt_limit: number;
  post_score_explanation: string;
  unlock_requirements: string;
  hints: HintDraft[];
  files: FileDraft[];
}

const json = (value: Record<string, unknown>) => (Object.keys(value).length === 0 ? "" : JSON.stringify(value, null, 2));
const text = (value: unknown, fallback = "") => (typeof value === "string" ? value : fallback);
const num = (value: unknown, fallback = 0) => (typeof value === "number" && Number.isFinite(value) ? value : fallback);

type Loose = Record<string, unknown>;
const isRecord = (value: unknown): value is Loose => typeof value === "object" && value !== null && !Array.isArray(value);
const records = (value: unknown): Loose[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** A stored hint's or file's id, kept so that saving updates it rather than adding another. */
const storedId = (row: Loose): { id?: number } => (typeof row.id === "number" ? { id: row.id } : {});

/** A draft from a stored challenge, or from a (partial) prefill such as an export. */
export function draftFrom(source: ChallengeView | Loose): ChallengeDraft {
  const s = source as Loose;
  const { code_language, code_default, ...metadata } = isRecord(s.challenge_metadata) ? s.challenge_metadata : {};
  const flag = parseFlagMetadata(s.flag_metadata ?? {});
  const tags = Array.isArray(s.tags)
    ? s.tags.flatMap((tag: unknown) => (typeof tag === "string" ? [{ type: "tag", text: tag }] : isRecord(tag) && typeof tag.text === "string" ? [{ type: text(tag.type, "tag"), text: tag.text }] : []))
    : [];
  return {
    name: text(s.name),
    description: text(s.description),
    challenge_type: text(s.challenge_type, "default"),
    challenge_metadata: json(metadata),
    code_language: text(code_language, CODE_LANGUAGES[0]),
    code_default: text(code_default),
    flag_type: text(s.flag_type, "plaintext"),
    flag_metadata: flag.ok && flag.value !== "" ? json(flag.value) : typeof s.flag_metadata === "string" ? s.flag_metadata : "",
    score: num(s.score, 100),
    points_type: text(s.points_type, "basic"),
    author: text(s.author),
    tags,
    hidden: s.hidden === true,
    scheduled_at: typeof s.scheduled_at === "string" && !Number.isNaN(Date.parse(s.scheduled_at)) ? Math.floor(Date.parse(s.scheduled_at) / 1000) : null,
    maintenance: s.maintenance === true,
    tiebreaker: s.tiebreaker !== false,
    attempt_limit: num(s.attempt_limit),
    post_score_explanation: text(s.post_score_explanation),
    unlock_requirements: text(s.unlock_requirements),
    hints: records(s.hints).map((h) => ({
      ...storedId(h),
      name: text(h.name),
      penalty: num(h.penalty),
      text: text(h.text),
      requirements: Array.isArray(h.requirements) ? h.requirements.filter((id): id is number => typeof id === "number") : [],
    })),
    files: records(s.files).map((f) => ({ ...storedId(f), name: text(f.name), url: text(f.url), size: num(f.size) })),
  };
}

/**
 * The challenge's fields as the API takes them (hints and files aside): the draft's fields, but
 * JSON fields as objects, code language and default code inside challenge_metadata, and no
 * attempt limit as null.
 */
export type ChallengeFields = Omit<ChallengeDraft, "challenge_metadata" | "code_language" | "code_default" | "flag_metadata" | "attempt_limit" | "scheduled_at" | "hints" | "files"> & {
  challenge_metadata: Record<string, unknown>;
  flag_metadata: Record<string, unknown>;
  attempt_limit: number | null;
  /** ISO-8601, or null. */
  scheduled_at: string | null;
};

/**
 * Checks a draft the way the server will and builds its fields. Flag metadata is parsed as JSON
 * when it is text; an invalid one gives the invalid flag JSON message, an empty one is empty.
 */
export function fieldsOf(draft: ChallengeDraft): { fields: ChallengeFields; errors: Record<string, string> } {
  const t = i18n.t;
  const errors: Record<string, string> = {};
  if (draft.name.trim() === "") errors.name = t("generic.required");
  const metadata = parseJsonObject(draft.challenge_metadata);
  if (!metadata) errors.challenge_metadata = t("editor.metadata_invalid");
  const flag = parseFlagMetadata(draft.flag_metadata);
  if (!flag.ok) errors.flag_metadata = t("editor.flag_json_invalid");
  const flagMetadata = flag.ok && flag.value !== "" ? flag.value : {};
  if (draft.flag_type === "hashed" && flag.ok && !/^[0-9a-f]{64}$/.test(String(flagMetadata.flag ?? ""))) errors.flag_metadata = t("editor.hash_invalid");
  const unlock = unlockError(draft.unlock_requirements.trim());
  if (unlock) errors.unlock_requirements = unlock;
  draft.hints.forEach((hint, index) => {
    if (hint.name.trim() === "") errors[`hints.${index}.name`] = t("generic.required");
  });
  const challengeMetadata = { ...metadata, ...(draft.challenge_type === "code" && { code_language: draft.code_language, code_default: draft.code_default }) };
  // Every other field goes to the API as the editor holds it.
  const { challenge_metadata: _metadata, code_language: _language, code_default: _code, flag_metadata: _flag, hints: _hints, files: _files, ...same } = draft;
  return {
    errors,
    fields: {
      ...same,
      name: draft.name.trim(),
      challenge_metadata: challengeMetadata,
      flag_metadata: flagMetadata,
      attempt_limit: draft.attempt_limit > 0 ? draft.attempt_limit : null,
      scheduled_at: draft.scheduled_at === null ? null : new Date(draft.scheduled_at * 1000).toISOString(),
      unlock_requirements: draft.unlock_requirements.trim().split(/\s+/).filter(Boolean).join(" "),
    },
  };
}

/** The prefill carried in a /new URL's hash (URL-encoded JSON), or null. */
export function prefillFromHash(hash: string): { draft: ChallengeDraft | null; invalid: boolean } {
  if (hash === "" || hash === "edit") return { draft: null, invalid: false };
  try {
    const value: unknown = JSON.parse(decodeURIComponent(hash));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { draft: null, invalid: true };
    return { draft: draftFrom(value as Loose), invalid: false };
  } catch {
    return { draft: null, invalid: true };
  }
}

/** The expression read as words ('A AND (B OR C)'), or null when it does not parse. */
export function describeUnlock(expression: string, names: ReadonlyMap<number, string>): string | null {
  const parsed = parseUnlock(expression);
  if (!parsed.ok) return null;
  const stack: string[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === "id") stack.push(names.get(token.id) ?? `#${token.id}`);
    else {
      const right = stack.pop()!;
      const left = stack.pop()!;
      stack.push(`(${left} ${token.op} ${right})`);
    }
  }
  const result = stack[0];
  if (result === undefined) return null;
  // The outermost operation needs no brackets.
  return parsed.tokens.at(-1)?.kind === "op" ? result.slice(1, -1) : result;
}

/**
 * JSON object text with `patch` applied, as the Advanced panel shows it: a key set to undefined is
 * removed, and no keys at all is the empty text. Text that is not a JSON object is left as it is
 * (its fields are disabled until it is fixed).
 */
export function patchJsonText(text: string, patch: Record<string, unknown>): string {
  const parsed = parseJsonObject(text);
  if (!parsed) return text;
  const next: Record<string, unknown> = { ...parsed, ...patch };
  for (const [key, value] of Object.entries(next)) if (value === undefined) delete next[key];
  return json(next);
}

/**
 * The unlock requirement as a sentence: 'Unlocks when Door and Window are solved', 'Unlocks when
 * Door or Window is solved'; one that mixes AND and OR is read with brackets. Null when it does
 * not parse.
 */
export function unlockSentence(expression: string, names: ReadonlyMap<number, string>): string | null {
  const t = i18n.t;
  const picks = unlockPicks(expression);
  if (!picks) {
    const text = describeUnlock(expression.trim(), names);
    return text === null ? null : t("editor.unlock_reads", { text });
  }
  if (picks.ids.length === 0) return t("editor.unlock_always");
  const list = new Intl.ListFormat(i18n.language || "en", { type: picks.operator === "AND" ? "conjunction" : "disjunction" }).format(picks.ids.map((id) => names.get(id) ?? `#${id}`));
  const key = picks.ids.length === 1 ? "editor.unlock_sentence_one" : picks.operator === "AND" ? "editor.unlock_sentence_all" : "editor.unlock_sentence_any";
  return t(key, { names: list, interpolation: { escapeValue: false } });
}
