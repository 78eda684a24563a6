import { createHash, timingSafeEqual } from "node:crypto";
import vm from "node:vm";
import {
  type LatLon,
  mapFlagMatches,
  MAX_FLAG_LENGTH,
  normaliseLenient,
  normaliseLongText,
  parseMapSubmission,
} from "@flagship/shared";
import type { JsonObject } from "./catalog.ts";

/** A regex flag gets this long to decide; a pattern that runs longer counts as no match. */
export const REGEX_TIME_LIMIT_MS = 50;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Compares in constant time: both sides are hashed first, so neither the content nor the length
 * of the real flag shows in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

// One sandbox for all regex flags: vm's timeout is the only way to interrupt a running RegExp.
const sandbox = vm.createContext(Object.create(null) as object);
const matchScript = new vm.Script("new RegExp('^(?:' + pattern + ')$').test(input)");

/** Whether `pattern` matches the whole of `input` (case-sensitive), within the time bound. */
export function regexFullMatch(pattern: string, input: string, timeoutMs = REGEX_TIME_LIMIT_MS): boolean {
  const globals = sandbox as { pattern?: string; input?: string };
  globals.pattern = pattern;
  globals.input = input;
  try {
    return matchScript.runInContext(sandbox, { timeout: timeoutMs }) === true;
  } catch {
    // A timed-out or broken pattern: never a match.
    return false;
  } finally {
    globals.pattern = undefined;
    globals.input = undefined;
  }
}

function asLatLon(value: unknown): LatLon | null {
  return parseMapSubmission(value);
}

/** The contract's flag-type table. `submission` is text, or `[lat, lon]` for map flags. */
export function flagMatches(flagType: string, flagMetadata: JsonObject, submission: string | readonly number[], flagPrefix: string): boolean {
  if (flagType === "map") {
    const point = asLatLon(submission);
    const location = asLatLon(flagMetadata.location);
    const radius = flagMetadata.radius;
    if (!point || !location || typeof radius !== "number") return false;
    return mapFlagMatches(point, location, radius);
  }
  if (typeof submission !== "string" || submission.length > MAX_FLAG_LENGTH) return false;
  const expected = flagMetadata.flag;
  if (typeof expected !== "string" || expected === "") return false;
  switch (flagType) {
    case "plaintext":
      return constantTimeEqual(submission, expected);
    case "lenient":
      return constantTimeEqual(normaliseLenient(submission, flagPrefix), normaliseLenient(expected, flagPrefix));
    case "long_text":
      return constantTimeEqual(normaliseLongText(submission), normaliseLongText(expected));
    case "hashed":
      // The contract compares lowercase hex with the stored value as is; a stored digest that is
      // not lowercase never matches, and self-check reports it as invalid.
      return constantTimeEqual(createHash("sha256").update(submission, "utf8").digest("hex"), expected);
    case "regex":
      return regexFullMatch(expected, submission);
    default:
      return false;
  }
}
