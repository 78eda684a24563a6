import { AppError } from "./errors.ts";

/** Django REST framework's message for the same refusal. */
export const NUL_MESSAGE = "Null characters are not allowed.";

function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 64 || typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => holdsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes("\u0000") || holdsNul(item, depth + 1));
}

/**
 * PostgreSQL text cannot hold a NUL character (U+0000), so input carrying one is refused up front:
 * 400 `invalid` on the first top-level field (body field, query parameter or tRPC input field)
 * that holds one.
 */
export function refuseNul(input: unknown): void {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    if (holdsNul(input)) throw AppError.field("invalid", "non_field_errors", NUL_MESSAGE);
    return;
  }
  for (const [field, value] of Object.entries(input)) {
    if (field.includes("\u0000")) throw AppError.field("invalid", "non_field_errors", NUL_MESSAGE);
    if (holdsNul(value)) throw AppError.field("invalid", field, NUL_MESSAGE);
  }
}
