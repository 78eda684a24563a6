import { AppError } from "./errors.ts";

/** Django REST framework's message for the same refusal. */
export const NUL_MESSAGE = "Null characters are not allowed.";
export const LONE_SURROGATE_MESSAGE = "Unpaired surrogate characters are not allowed.";

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as text, or null when it can. */
function flaw(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_MESSAGE;
  return null;
}

function findFlaw(value: unknown, depth = 0): string | null {
  if (typeof value === "string") return flaw(value);
  if (depth > 64 || typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findFlaw(item, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = flaw(key) ?? findFlaw(item, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Text that cannot be stored faithfully is refused up front, before any work: PostgreSQL text
 * cannot hold a NUL character (U+0000), and a lone UTF-16 surrogate (`"\ud800"` in JSON) has no
 * UTF-8 form, so the driver would either fail mid-request or quietly store U+FFFD in its place.
 * 400 `invalid` on the first top-level field (body field, query parameter or tRPC input field)
 * that holds one.
 */
export function refuseUnstorableText(input: unknown): void {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const found = findFlaw(input);
    if (found) throw AppError.field("invalid", "non_field_errors", found);
    return;
  }
  for (const [field, value] of Object.entries(input)) {
    const inKey = flaw(field);
    if (inKey) throw AppError.field("invalid", "non_field_errors", inKey);
    const found = findFlaw(value);
    if (found) throw AppError.field("invalid", field, found);
  }
}

/** True when `text` holds a lone UTF-16 surrogate (one that no UTF-8 can encode). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
