import { FREE_TEXT_CHALLENGE_TYPES } from "./flag-format.ts";
import { flagMetadataError, isFlagType } from "./flags.ts";

export type SelfCheckIssue = "missing_points" | "missing_flag_type" | "invalid_flag_data_type" | "invalid_flag_data" | "lenient_freeform_mismatch";

export interface SelfCheckEntry {
  challenge: number;
  issue: SelfCheckIssue;
  /** What is wrong in words, or "" when the issue says it all. */
  extra: string;
}

/** The checks on one challenge, as staff see them before the event. Pure, so it is tested alone. */
export function checkChallenge(c: { id: number; score: number; flagType: string; flagMetadata: unknown; challengeType: string }): SelfCheckEntry[] {
  const found: SelfCheckEntry[] = [];
  if (!(c.score > 0)) found.push({ challenge: c.id, issue: "missing_points", extra: "" });
  if (!c.flagType) {
    found.push({ challenge: c.id, issue: "missing_flag_type", extra: "" });
    return found;
  }
  const meta = c.flagMetadata;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    found.push({ challenge: c.id, issue: "invalid_flag_data_type", extra: "" });
    return found;
  }
  // Upstream inverted the hashed check; here a hashed flag is invalid unless it is 64 lowercase hex.
  const error = isFlagType(c.flagType) ? flagMetadataError(c.flagType, meta) : `Unknown flag type '${c.flagType}'.`;
  if (error) found.push({ challenge: c.id, issue: "invalid_flag_data", extra: error });
  // A lenient flag accepts answers without the flag{...} wrapper, but only a free-text challenge
  // type lets players send those: the default form insists on the format first.
  if (c.flagType === "lenient" && !FREE_TEXT_CHALLENGE_TYPES.has(c.challengeType)) {
    found.push({ challenge: c.id, issue: "lenient_freeform_mismatch", extra: "A lenient flag needs a free-text challenge type (freeform, longText or code)." });
  }
  return found;
}

