import { describe, expect, it } from "vitest";
import { deriveTeamFlag, flagMetadataError, looksLikeTeamFlag, MAX_FLAG_REGEX_LENGTH, regexSafetyError } from "./flags.ts";

describe("regexSafetyError: regex flags must compile with RE2", () => {
  it("allows patterns that backtrack catastrophically elsewhere: RE2 runs them in linear time", () => {
    for (const pattern of ["a*a*a*a*a*a*a*a*b", "(a+)+$", "(a|aa)*", "(\\w|_)+", "flag\\{[a-z]+\\}", "flag\\{(red|green|blue)\\}", "(?i)flag\\{x\\}"]) {
      expect(regexSafetyError(pattern), pattern).toBeNull();
    }
  });

  it("refuses what RE2 cannot compile, saying why", () => {
    expect(regexSafetyError("(a)\\1")).toMatch(/^Flag patterns use RE2 syntax \(no backreferences or lookaround\), and this one does not compile: invalid escape sequence: `\\1`\.$/);
    expect(regexSafetyError("flag(?=x)")).toMatch(/RE2 syntax.*unsupported Perl syntax/);
    expect(regexSafetyError("(?<!a)b")).toMatch(/RE2 syntax/);
    expect(regexSafetyError("[a-")).toMatch(/RE2 syntax.*missing closing \]/);
  });

  it("refuses empty and overlong patterns", () => {
    expect(regexSafetyError("")).toBe("The pattern is empty.");
    expect(regexSafetyError("a".repeat(MAX_FLAG_REGEX_LENGTH + 1))).toBe(`The pattern is longer than ${MAX_FLAG_REGEX_LENGTH} characters.`);
  });
});

describe("per-team (dynamic) flags", () => {
  const secret = "0123456789abcdef0123456789abcdef";

  it("derives HMAC-SHA256 of the team under the challenge's secret, 128 bits, as prefix{hex}", () => {
    // Known answer, from an independent HMAC-SHA256 (Node's crypto): the first 128 bits of HMAC(secret, "team:7").
    const expected = "4cfc43a65912bee688455860cc06b839";
    expect(deriveTeamFlag(secret, 7, "flag")).toBe(`flag{${expected}}`);
    expect(deriveTeamFlag(secret, 7, "ractf")).toBe(`ractf{${expected}}`);
  });

  it("gives each team its own flag, the same every time, and another for another secret", () => {
    expect(deriveTeamFlag(secret, 1, "flag")).toBe(deriveTeamFlag(secret, 1, "flag"));
    expect(deriveTeamFlag(secret, 1, "flag")).not.toBe(deriveTeamFlag(secret, 2, "flag"));
    expect(deriveTeamFlag(`${secret}x`, 1, "flag")).not.toBe(deriveTeamFlag(secret, 1, "flag"));
  });

  it("recognises the shape of a team flag for the event's prefix", () => {
    expect(looksLikeTeamFlag(deriveTeamFlag(secret, 3, "flag"), "flag")).toBe(true);
    expect(looksLikeTeamFlag(deriveTeamFlag(secret, 3, "flag"), "ctf")).toBe(false);
    expect(looksLikeTeamFlag(`flag{${"A".repeat(32)}}`, "flag")).toBe(false);
    expect(looksLikeTeamFlag(`flag{${"a".repeat(31)}}`, "flag")).toBe(false);
    expect(looksLikeTeamFlag("flag{guess}", "flag")).toBe(false);
  });

  it("accepts {} (a secret is generated) or a secret of at least 16 characters", () => {
    expect(flagMetadataError("dynamic", {})).toBeNull();
    expect(flagMetadataError("dynamic", { secret })).toBeNull();
    expect(flagMetadataError("dynamic", { secret: "short" })).toMatch(/at least 16/);
    expect(flagMetadataError("dynamic", { secret: 5 })).toMatch(/secret must be/);
  });
});
