/**
 * Flags: the flag types' pure rules (normalisation, distance, metadata shape, regex vetting) and
 * the client-side format checks. Hashing, constant-time comparison and the time-bounded regex run
 * live on the server, which needs Node's crypto and vm.
 */

export const FLAG_TYPES = ["plaintext", "lenient", "long_text", "hashed", "regex", "map"] as const;
export type FlagType = (typeof FLAG_TYPES)[number];

export function isFlagType(value: unknown): value is FlagType {
  return typeof value === "string" && (FLAG_TYPES as readonly string[]).includes(value);
}

/** The longest submission we compare; longer ones are simply incorrect. */
export const MAX_FLAG_LENGTH = 65_536;
/** The longest regex staff may save. */
export const MAX_FLAG_REGEX_LENGTH = 1000;
/** Earth's radius the contract fixes for map flags, in km. */
export const EARTH_RADIUS_KM = 6373;

/** Lenient: NFD without combining marks, lower-cased, no whitespace, wrapped as prefix{...}. */
export function normaliseLenient(flag: string, prefix: string): string {
  const cleaned = flag
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, "");
  const head = `${prefix.toLowerCase()}{`;
  return cleaned.startsWith(head) && cleaned.endsWith("}") ? cleaned : `${head}${cleaned}}`;
}

/** long_text: ASCII letters only, lower-cased. */
export function normaliseLongText(flag: string): string {
  return flag.replace(/[^A-Za-z]/g, "").toLowerCase();
}

export type LatLon = readonly [number, number];

function isLatLon(lat: unknown, lon: unknown): boolean {
  return (
    typeof lat === "number" && typeof lon === "number" && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
  );
}

/** A map submission: a `[lat, lon]` array, or a string `"lat,lon"` / `"[lat, lon]"`. */
export function parseMapSubmission(flag: unknown): LatLon | null {
  let value = flag;
  if (typeof value === "string") {
    const text = value.trim();
    if (text.startsWith("[")) {
      try {
        value = JSON.parse(text);
      } catch {
        return null;
      }
    } else {
      const parts = text.split(",");
      if (parts.length !== 2 || parts.some((p) => p.trim() === "")) return null;
      value = parts.map((p) => Number(p.trim()));
    }
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [lat, lon] = value as unknown[];
  return isLatLon(lat, lon) ? [lat as number, lon as number] : null;
}

/** Great-circle distance in km (haversine, R = 6373 km). */
export function haversineKm(a: LatLon, b: LatLon): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}

/** A map flag is correct when the point is strictly within `radius` km of `location`. */
export function mapFlagMatches(submission: LatLon, location: LatLon, radiusKm: number): boolean {
  return haversineKm(submission, location) < radiusKm;
}

/**
 * Whether an alternation may let more than one alternative match at the same position: each
 * alternative must start with a plain literal character (not optional), and no two with the same
 * one (compared case-insensitively, as an inline (?i:) group could make them equal). Anything
 * we cannot read that simply counts as ambiguous, to stay on the safe side.
 */
function alternativesOverlap(pattern: string, starts: readonly number[], end: number): boolean {
  const seen = new Set<string>();
  for (let k = 0; k < starts.length; k++) {
    const at = starts[k]!;
    const stop = k + 1 < starts.length ? starts[k + 1]! - 1 : end;
    if (at >= stop) return true; // An empty alternative matches alongside any other.
    const first = pattern[at]!;
    if ("\\()[].^$|*+?{}".includes(first)) return true;
    const next = pattern[at + 1] ?? "";
    if (at + 1 < stop && "?*{".includes(next)) return true; // The literal may be skipped.
    const key = first.toLowerCase();
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

interface OpenGroup {
  /** A quantifier occurred inside. */
  quantified: boolean;
  /** An alternation whose alternatives can match the same text occurred inside (or is this one). */
  overlapping: boolean;
  /** Where each top-level alternative starts (the first one after any `?:` style prefix). */
  alternatives: number[];
}

/**
 * Rejects patterns that can backtrack catastrophically: a quantified group that itself contains a
 * quantifier (`(a+)+`, `(\w*)*`), a repeated group containing an alternation whose alternatives
 * can match the same text (`(a|aa)*`, `(a|a)+`), and backreferences. Together with the server's
 * time bound and the length cap on submissions, this keeps a regex flag from stalling the server.
 */
export function regexSafetyError(pattern: string): string | null {
  if (pattern.length === 0) return "The pattern is empty.";
  if (pattern.length > MAX_FLAG_REGEX_LENGTH) return `The pattern is longer than ${MAX_FLAG_REGEX_LENGTH} characters.`;
  try {
    new RegExp(pattern);
  } catch (error) {
    return `Not a valid regular expression: ${(error as Error).message}`;
  }
  const groups: OpenGroup[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || next === "k")) return "Backreferences are not allowed in flag patterns.";
      i += 1;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      continue;
    }
    if (ch === "(") {
      // The group's own text starts after a (?:, (?=, (?!, (?<=, (?<! or (?<name> prefix.
      const prefix = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i));
      const contentStart = i + (prefix ? prefix[0].length : 1);
      groups.push({ quantified: false, overlapping: false, alternatives: [contentStart] });
      i = contentStart - 1;
      continue;
    }
    if (ch === "|") {
      groups.at(-1)?.alternatives.push(i + 1);
      continue;
    }
    if (ch === ")") {
      const group = groups.pop();
      if (!group) continue;
      if (group.alternatives.length > 1 && alternativesOverlap(pattern, group.alternatives, i)) group.overlapping = true;
      // What happened inside a group happened inside its parent too.
      const parent = groups.at(-1);
      if (parent) {
        parent.quantified ||= group.quantified;
        parent.overlapping ||= group.overlapping;
      }
      const after = pattern[i + 1];
      if (after === "*" || after === "+" || after === "{") {
        if (group.quantified) return "Nested quantifiers such as (a+)+ can take exponential time; rewrite the pattern.";
        if (group.overlapping) {
          return "A repeated group whose alternatives can match the same text, such as (a|aa)*, can take exponential time; rewrite the pattern.";
        }
      }
      continue;
    }
    if (ch === "*" || ch === "+" || (ch === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)))) {
      const group = groups.at(-1);
      if (group) group.quantified = true;
    }
  }
  return null;
}

/** Checks `flag_metadata` for a flag type; answers a message, or null when it is usable. */
export function flagMetadataError(flagType: string, metadata: unknown): string | null {
  if (!isFlagType(flagType)) return `Unknown flag type '${flagType}'.`;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return "Flag metadata must be an object.";
  const meta = metadata as Record<string, unknown>;
  if (meta.decay_constant !== undefined && (typeof meta.decay_constant !== "number" || !(meta.decay_constant > 0 && meta.decay_constant <= 1))) {
    return "decay_constant must be a number in (0, 1].";
  }
  if (meta.min_points !== undefined && (typeof meta.min_points !== "number" || !Number.isInteger(meta.min_points) || meta.min_points < 0)) {
    return "min_points must be a whole number of at least 0.";
  }
  switch (flagType) {
    case "plaintext":
    case "lenient":
    case "long_text":
      if (typeof meta.flag !== "string" || meta.flag.length === 0) return "flag must be a non-empty string.";
      return null;
    case "hashed":
      if (typeof meta.flag !== "string" || !/^[0-9a-f]{64}$/.test(meta.flag)) return "flag must be a SHA-256 digest: 64 lowercase hexadecimal characters.";
      return null;
    case "regex":
      if (typeof meta.flag !== "string") return "flag must be a regular expression.";
      return regexSafetyError(meta.flag);
    case "map": {
      const location = meta.location;
      if (!Array.isArray(location) || location.length !== 2 || !isLatLon(location[0], location[1])) {
        return "location must be [latitude, longitude].";
      }
      if (typeof meta.radius !== "number" || !(meta.radius > 0)) return "radius must be a positive number of km.";
      return null;
    }
  }
}

/** What the client needs to judge a flag's format before sending it. */
export interface FlagFormatInput {
  challengeType: string;
  challengeMetadata: Record<string, unknown> | null | undefined;
  flagPrefix: string;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compile(pattern: unknown, anchored: boolean): RegExp | null {
  if (typeof pattern !== "string" || pattern === "") return null;
  try {
    return new RegExp(anchored ? `^(?:${pattern})$` : pattern);
  } catch {
    return null;
  }
}

/** Types whose flags are free text: any non-empty value may be sent. */
export const FREE_TEXT_CHALLENGE_TYPES: ReadonlySet<string> = new Set(["freeform", "longText", "code"]);

/**
 * Whether a typed flag has the expected shape: freeform, longText and code accept any non-empty
 * value; others must match challenge_metadata.flag_regex when set, else `<flag_prefix>{...}`.
 */
export function flagFormatMatches(input: FlagFormatInput, value: string): boolean {
  if (value.trim() === "") return false;
  if (FREE_TEXT_CHALLENGE_TYPES.has(input.challengeType)) return true;
  const custom = compile(input.challengeMetadata?.flag_regex, true);
  if (custom) return custom.test(value);
  return new RegExp(`^${escapeRegex(input.flagPrefix)}\\{.+\\}$`, "s").test(value);
}

/**
 * Guidance while typing: false when what was typed so far can no longer become a valid flag.
 * Uses challenge_metadata.flag_partial_regex when set; otherwise, without a custom flag regex,
 * the value must begin like `<flag_prefix>{`.
 */
export function flagPartialOk(input: FlagFormatInput, value: string): boolean {
  if (value === "" || FREE_TEXT_CHALLENGE_TYPES.has(input.challengeType)) return true;
  const partial = compile(input.challengeMetadata?.flag_partial_regex, false);
  if (partial) return partial.test(value);
  if (compile(input.challengeMetadata?.flag_regex, true)) return true;
  const head = `${input.flagPrefix}{`;
  return value.length <= head.length ? head.startsWith(value) : value.startsWith(head);
}
