/**
 * Flags: the flag types' pure rules (normalisation, distance, metadata shape, regex vetting) and
 * the client-side format checks. Hashing, constant-time comparison and matching regex flags live
 * on the server.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { RE2JS } from "re2js";

export const FLAG_TYPES = ["plaintext", "lenient", "long_text", "hashed", "regex", "map", "dynamic"] as const;
export type FlagType = (typeof FLAG_TYPES)[number];

export function isFlagType(value: unknown): value is FlagType {
  return typeof value === "string" && (FLAG_TYPES as readonly string[]).includes(value);
}

/** The longest submission we compare; longer ones are simply incorrect. */
export const MAX_FLAG_LENGTH = 65_536;
/** The longest regex staff may save. */
export const MAX_FLAG_REGEX_LENGTH = 1000;
/** The longest submission a regex flag is matched against; longer ones are simply incorrect. */
export const MAX_REGEX_SUBMISSION_LENGTH = 4096;
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
 * Whether staff may save `pattern` as a regex flag: it must compile with RE2 (the linear-time
 * engine regex flags run on, so no pattern can backtrack catastrophically), which has no
 * backreferences or lookaround; null when it may.
 */
export function regexSafetyError(pattern: string): string | null {
  if (pattern.length === 0) return "The pattern is empty.";
  if (pattern.length > MAX_FLAG_REGEX_LENGTH) return `The pattern is longer than ${MAX_FLAG_REGEX_LENGTH} characters.`;
  try {
    RE2JS.compile(pattern);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, "");
    return `Flag patterns use RE2 syntax (no backreferences or lookaround), and this one does not compile: ${reason}.`;
  }
  return null;
}

/** Hex characters of the HMAC a per-team flag carries (128 bits). */
export const TEAM_FLAG_HEX_LENGTH = 32;
/** The least length of a dynamic challenge's secret. */
export const MIN_FLAG_SECRET_LENGTH = 16;

/**
 * A team's own flag for a `dynamic` challenge: HMAC-SHA256 of the team id under the challenge's
 * secret, cut to 128 bits, as `prefix{hex}`. Nothing is stored per team, and every server copy
 * derives the same flag.
 */
export function deriveTeamFlag(secret: string, teamId: number, prefix: string): string {
  const mac = bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`team:${teamId}`)));
  return `${prefix}{${mac.slice(0, TEAM_FLAG_HEX_LENGTH)}}`;
}

/** Whether `flag` has the shape of a per-team flag with this prefix (so it may be another team's). */
export function looksLikeTeamFlag(flag: string, prefix: string): boolean {
  return flag.length === prefix.length + TEAM_FLAG_HEX_LENGTH + 2 && flag.startsWith(`${prefix}{`) && /^[0-9a-f]+$/.test(flag.slice(prefix.length + 1, -1)) && flag.endsWith("}");
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
  if (meta.decay_function !== undefined && meta.decay_function !== "linear" && meta.decay_function !== "logarithmic") {
    return "decay_function must be linear or logarithmic.";
  }
  if (meta.decay !== undefined && (typeof meta.decay !== "number" || !Number.isInteger(meta.decay) || meta.decay < 0 || meta.decay > 1_000_000)) {
    return "decay must be a whole number from 0 to 1000000.";
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
    case "dynamic":
      // {} is fine: the server generates the secret.
      if (meta.secret !== undefined && (typeof meta.secret !== "string" || meta.secret.length < MIN_FLAG_SECRET_LENGTH)) {
        return `secret must be a string of at least ${MIN_FLAG_SECRET_LENGTH} characters (or left out to generate one).`;
      }
      return null;
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
