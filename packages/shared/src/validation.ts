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

/**
 * Parses input with a schema (read leniently, see readLenient), throwing the contract's validation AppError on failure. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(readLenient(schema, input));
  if (!result.success) throw validationError(result.error, input);
  return result.data;
}

type Scalar = "number" | "boolean" | null;
type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);

/** Looks through wrappers and pipes to the schema that decides the shape of a value. */
function core(schema: unknown): Def {
  let def = defOf(schema);
  for (let depth = 0; depth < 20; depth++) {
    if (WRAPPERS.has(def.type)) def = defOf(def.innerType);
    // A preprocess is a pipe from a transform: the value meets the pipe's output schema.
    else if (def.type === "pipe") def = defOf(defOf(def.in).type === "transform" ? def.out : def.in);
    else if (def.type === "lazy") def = defOf((def.getter as () => unknown)());
    else break;
  }
  return def;
}

/** The scalar a schema reads: a number, a boolean, or neither (unions must agree). */
function scalarOf(def: Def): Scalar {
  if (def.type === "number" || def.type === "int") return "number";
  if (def.type === "boolean") return "boolean";
  if (def.type === "union") {
    const kinds = new Set<Scalar>();
    for (const option of def.options as unknown[]) {
      const inner = core(option);
      if (inner.type === "null" || inner.type === "undefined") continue;
      kinds.add(scalarOf(inner));
    }
    return kinds.size === 1 ? [...kinds][0]! : null;
  }
  return null;
}

// Django REST framework's reading of form values: a plain decimal number, no exponent, no blank.
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;

/**
 * Reads input the way RACTF's own server does (the REST contract's Input rule): where the schema
 * wants a number, a numeric string ("100", "0.2") is that number; where it wants a boolean, the
 * strings "true" and "false" are booleans. Anything else is left for the schema to refuse.
 */
export function readLenient(schema: unknown, value: unknown): unknown {
  const def = core(schema);
  if (typeof value === "string") {
    const scalar = scalarOf(def);
    if (scalar === "number" && NUMERIC.test(value)) return Number(value);
    if (scalar === "boolean" && (value === "true" || value === "false")) return value === "true";
    return value;
  }
  if (Array.isArray(value)) {
    if (def.type === "array") return value.map((item) => readLenient(def.element, item));
    if (def.type === "tuple") return value.map((item, i) => ((def.items as unknown[])[i] ? readLenient((def.items as unknown[])[i], item) : item));
    return value;
  }
  if (value !== null && typeof value === "object") {
    if (def.type === "object") {
      const shape = def.shape as Record<string, unknown>;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const key of Object.keys(out)) if (Object.hasOwn(shape, key)) out[key] = readLenient(shape[key], out[key]);
      return out;
    }
    if (def.type === "record") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = readLenient(def.valueType, item);
      return out;
    }
  }
  return value;
}
