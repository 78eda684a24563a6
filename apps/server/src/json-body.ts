import { isUtf8 } from "node:buffer";
import { AppError, hasLoneSurrogate } from "@flagship/shared";

export const INVALID_UTF8_MESSAGE = "The text is not valid UTF-8.";


/** How many bytes the well-formed UTF-8 sequence at `i` has (Unicode's table 3-7), 0 when it is not one. */
function sequenceLength(bytes: Buffer, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (j: number, lo = 0x80, hi = 0xbf) => j < bytes.length && bytes[j]! >= lo && bytes[j]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    // E0 would encode below U+0800 (overlong) with 80..9F; ED would encode surrogates with A0..BF.
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    // F0 would be overlong with 80..8F; F4 would go past U+10FFFF with 90..BF.
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * The body's text with each byte that is not part of well-formed UTF-8 turned into a lone low
 * surrogate (U+DC80 to U+DCFF, as Python's "surrogateescape"): a character valid UTF-8 never
 * decodes to, so the flaw can be found again after the JSON is parsed.
 */
function markInvalidBytes(bytes: Buffer): string {
  let text = "";
  let start = 0;
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += bytes.toString("utf8", start, i) + String.fromCharCode(0xdc00 + bytes[i]!);
    start = i += 1;
  }
  return text + bytes.toString("utf8", start);
}

/**
 * Where a parsed body's first lone surrogate is: the keys from the top down to the string holding
 * it, then `null` when the flaw is in the last key itself rather than in its value.
 */
function flawPath(value: unknown, depth = 0): (string | null)[] | null {
  if (typeof value === "string") return hasLoneSurrogate(value) ? [] : null;
  if (depth > 64 || typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (hasLoneSurrogate(key)) return [key, null];
    const below = flawPath(item, depth + 1);
    if (below) return [key, ...below];
  }
  return null;
}

/** The field a flaw is reported on: the top-level key holding it (not a key itself, not an array's index). */
export function topLevelField(path: (string | null)[], top: unknown): string | null {
  if (Array.isArray(top) || path[1] === null) return null;
  return path[0] ?? null;
}

/**
 * A JSON body as text, refusing bytes that are not UTF-8: decoded leniently they would become
 * U+FFFD and be stored in place of what the client meant. 400 `invalid` on the field holding them
 * (`fieldOf` names it from the keys leading to the flaw, e.g. inside a transport's envelope), else
 * on `non_field_errors`: when they are outside any string, or cannot be told apart from an escaped
 * surrogate next to them. The caller parses the text.
 */
export function decodeJsonBody(bytes: Buffer, fieldOf: (path: (string | null)[], top: unknown) => string | null = topLevelField): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  // Only a flawed body pays for finding its field.
  let field: string | null = null;
  try {
    const parsed: unknown = JSON.parse(markInvalidBytes(bytes));
    const path = flawPath(parsed);
    if (path) field = fieldOf(path, parsed);
  } catch {
    // Not JSON even with the flaw marked: the bytes are the first thing to fix.
  }
  throw AppError.field("invalid", field ?? "non_field_errors", INVALID_UTF8_MESSAGE);
}
