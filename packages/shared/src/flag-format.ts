/** What a typed flag should look like, checked in the browser while typing (no regex engine beyond the built-in one). */

export interface FlagFormatInput {
  challengeType: string;
  challengeMetadata: Record<string, unknown> | null | undefined;
  flagPrefix: string;
}

/** Regex text (JavaScript and RE2 alike) that matches `text` literally. */
export function escapeRegex(text: string): string {
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
