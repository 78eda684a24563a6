import { describe, expect, it } from "vitest";
import { regexSafetyError } from "./flags.ts";

describe("regexSafetyError: alternation inside a repeated group", () => {
  it("refuses the classic overlapping shapes, which backtrack exponentially", () => {
    for (const pattern of ["(a|aa)*", "(a|a)*", "(a|aa)+b", "(?:a|ab){2,}", "(?<x>a|ab)+", "((a|aa))*", "((a|ab)c)*", "(a|A)*", "(a?b|b)*", "(a||b)*", "(.|a)*", "(\\w|_)+", "([ab]|a)*"]) {
      expect(regexSafetyError(pattern), pattern).toMatch(/alternatives can match the same text/);
    }
  });

  it("allows alternations whose alternatives start differently, and alternations not repeated", () => {
    for (const pattern of ["flag\\{(ab|cd)*\\}", "(a|b)+", "(?:x|yz|w)*end", "(a|aa)b", "flag\\{(red|green|blue)\\}", "a|aa", "(ab|a)?", "[a|b]*", "\\(a|a\\)*"]) {
      expect(regexSafetyError(pattern), pattern).toBeNull();
    }
  });

  it("keeps the earlier rules", () => {
    expect(regexSafetyError("(a+)+$")).toMatch(/Nested quantifiers/);
    expect(regexSafetyError("(a)\\1")).toMatch(/Backreferences/);
    expect(regexSafetyError("flag\\{[a-z]+\\}")).toBeNull();
  });
});
