import { createHash, timingSafeEqual } from "node:crypto";
import {
  type LatLon,
  mapFlagMatches,
  MAX_FLAG_LENGTH,
  MAX_REGEX_SUBMISSION_LENGTH,
  normaliseLenient,
  normaliseLongText,
  parseMapSubmission,
} from "@flagship/shared";
import { RE2JS } from "re2js";
import type { JsonObject } from "./catalog.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Compares in constant time: both sides are hashed first, so neither the content nor the length
 * of the real flag shows in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** Compiled regex flags by pattern: compiling costs more than matching a short flag. */
const compiled = new Map<string, RE2JS | null>();
const MAX_COMPILED = 1000;

function compileFlagPattern(pattern: string): RE2JS | null {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    try {
      regex = RE2JS.compile(pattern);
    } catch {
      // Vetted on save, so only a pattern saved before vetting (self-check reports it).
      regex = null;
    }
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

/**
 * Whether `pattern` matches the whole of `input` (case-sensitive). RE2 matches in time linear in
 * the input, whatever the pattern, and the input is bounded: no flag can stall the server.
 */
export function regexFullMatch(pattern: string, input: string): boolean {
  if (input.length > MAX_REGEX_SUBMISSION_LENGTH) return false;
  return compileFlagPattern(pattern)?.matches(input) ?? false;
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
