import { describe, expect, it } from "vitest";
import { checkChallenge } from "./self-check.ts";

const base = { id: 7, score: 100, flagType: "plaintext", flagMetadata: { flag: "flag{x}" }, challengeType: "default" };

describe("checkChallenge", () => {
  it("passes a well-formed challenge", () => {
    expect(checkChallenge(base)).toEqual([]);
  });
  it("reports missing or zero points", () => {
    expect(checkChallenge({ ...base, score: 0 })).toEqual([{ challenge: 7, issue: "missing_points", extra: "" }]);
  });
  it("reports a missing flag type", () => {
    expect(checkChallenge({ ...base, flagType: "" })).toEqual([{ challenge: 7, issue: "missing_flag_type", extra: "" }]);
  });
  it("reports flag data that is not an object", () => {
    expect(checkChallenge({ ...base, flagMetadata: "flag{x}" })).toEqual([{ challenge: 7, issue: "invalid_flag_data_type", extra: "" }]);
  });
  it("reports a hashed flag that is not 64 lowercase hex characters", () => {
    const [entry] = checkChallenge({ ...base, flagType: "hashed", flagMetadata: { flag: "ABC" } });
    expect(entry).toMatchObject({ issue: "invalid_flag_data", extra: expect.stringContaining("64 lowercase") });
    expect(checkChallenge({ ...base, flagType: "hashed", flagMetadata: { flag: "a".repeat(64) } })).toEqual([]);
  });
  it("reports a lenient flag on a challenge type that insists on the flag format", () => {
    expect(checkChallenge({ ...base, flagType: "lenient" })[0]).toMatchObject({ issue: "lenient_freeform_mismatch" });
    expect(checkChallenge({ ...base, flagType: "lenient", challengeType: "freeform" })).toEqual([]);
  });
});
