import { describe, expect, it } from "vitest";
import { MAX_FLAG_REGEX_LENGTH, regexSafetyError } from "./flags.ts";

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
