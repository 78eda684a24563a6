import type { z } from "zod";
import { AppError, type ErrorCode, type FieldErrors } from "./errors.ts";

/**
 * Turns a zod failure into the REST contract's field errors: the first issue's code becomes `m`,
 * every issue adds a message under its field (`non_field_errors` for the object itself).
 */
export function validationError(error: z.ZodError, input: unknown): AppError {
  const fields: FieldErrors = {};
  let first: ErrorCode | undefined;
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "non_field_errors";
    const value = valueAt(input, issue.path);
    const code = issueCode(issue, value);
    first ??= code;
    (fields[field] ??= []).push(issueMessage(code, issue));
  }
  const code = first ?? "invalid";
  return new AppError(code, { message: Object.values(fields)[0]?.[0] ?? "Invalid input.", details: fields });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function issueCode(issue: z.core.$ZodIssue, value: unknown): ErrorCode {
  if (value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union")) return "required";
  if (typeof value === "string" && value.trim() === "" && (issue.code === "too_small" || issue.code === "invalid_format" || issue.code === "custom")) {
    return "blank";
  }
  switch (issue.code) {
    case "too_big":
      return issue.origin === "string" || issue.origin === "array" ? "max_length" : "max_value";
    case "too_small":
      return issue.origin === "string" || issue.origin === "array" ? "min_length" : "min_value";
    case "custom": {
      const params = (issue as { params?: { code?: string } }).params;
      return params?.code && isKnown(params.code) ? (params.code as ErrorCode) : "invalid";
    }
    default:
      return "invalid";
  }
}

const KNOWN_FIELD_CODES = new Set(["required", "blank", "invalid", "max_length", "min_length", "max_value", "min_value", "unique"]);
function isKnown(code: string): boolean {
  return KNOWN_FIELD_CODES.has(code);
}

function issueMessage(code: ErrorCode, issue: z.core.$ZodIssue): string {
  switch (code) {
    case "required":
      return "This field is required";
    case "blank":
      return "This field may not be blank.";
    case "max_length":
      return `Ensure this field has no more than ${(issue as { maximum?: number | bigint }).maximum} characters.`;
    case "min_length":
      return `Ensure this field has at least ${(issue as { minimum?: number | bigint }).minimum} characters.`;
    case "max_value":
      return `Ensure this value is less than or equal to ${(issue as { maximum?: number | bigint }).maximum}.`;
    case "min_value":
      return `Ensure this value is greater than or equal to ${(issue as { minimum?: number | bigint }).minimum}.`;
    default:
      return issue.message;
  }
}

/** Parses input with a schema, throwing the contract's validation AppError on failure. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, input);
  return result.data;
}
