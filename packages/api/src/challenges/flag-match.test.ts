import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { constantTimeEqual, flagMatches, regexFullMatch } from "./flag-match.ts";
import { MAX_REGEX_SUBMISSION_LENGTH } from "@flagship/shared";

describe("flag types on the server", () => {
  it("plaintext: exact equality", () => {
    expect(flagMatches("plaintext", { flag: "flag{A b}" }, "flag{A b}", "flag")).toBe(true);
    expect(flagMatches("plaintext", { flag: "flag{A b}" }, "flag{a b}", "flag")).toBe(false);
    expect(flagMatches("plaintext", { flag: "flag{x}" }, "flag{x} ", "flag")).toBe(false);
  });

  it("lenient: accents, case, whitespace and a missing prefix do not matter", () => {
    const meta = { flag: "flag{Crème Brûlée}" };
    expect(flagMatches("lenient", meta, "FLAG{ creme brulee }", "flag")).toBe(true);
    expect(flagMatches("lenient", meta, "cremebrulee", "flag")).toBe(true);
    expect(flagMatches("lenient", meta, "flag{cremebrule}", "flag")).toBe(false);
    expect(flagMatches("lenient", { flag: "ctf{x y}" }, "XY", "ctf")).toBe(true);
  });

  it("long_text: ASCII letters only, case-insensitive", () => {
    const meta = { flag: "It was the best of times, it was the worst of times." };
    expect(flagMatches("long_text", meta, "it was the best of times it was the worst of times", "flag")).toBe(true);
    expect(flagMatches("long_text", meta, "it was the best of times", "flag")).toBe(false);
  });

  it("hashed: sha256 of the submission as lowercase hex", () => {
    const digest = createHash("sha256").update("flag{hashed}").digest("hex");
    expect(flagMatches("hashed", { flag: digest }, "flag{hashed}", "flag")).toBe(true);
    expect(flagMatches("hashed", { flag: digest }, "flag{Hashed}", "flag")).toBe(false);
  });

  it("hashed: the stored digest is compared as is, so an upper-case one never matches", () => {
    const digest = createHash("sha256").update("flag{hashed}").digest("hex");
    expect(flagMatches("hashed", { flag: digest.toUpperCase() }, "flag{hashed}", "flag")).toBe(false);
  });

  it("regex: anchored and case-sensitive", () => {
    const meta = { flag: "flag\\{[a-z]{3}\\d\\}" };
    expect(flagMatches("regex", meta, "flag{abc1}", "flag")).toBe(true);
    expect(flagMatches("regex", meta, "flag{ABC1}", "flag")).toBe(false);
    expect(flagMatches("regex", meta, "xflag{abc1}", "flag")).toBe(false);
    expect(flagMatches("regex", meta, "flag{abc1}x", "flag")).toBe(false);
    expect(flagMatches("regex", { flag: "a|b" }, "ab", "flag")).toBe(false);
  });

  // A backtracking engine needs longer than the age of the universe for these; RE2 is linear.
  it("regex: patterns that backtrack catastrophically elsewhere decide at once, right or wrong", { timeout: 5000 }, () => {
    const input = "a".repeat(MAX_REGEX_SUBMISSION_LENGTH - 1);
    expect(regexFullMatch("a*a*a*a*a*a*a*a*b", input)).toBe(false);
    expect(regexFullMatch("a*a*a*a*a*a*a*a*b", `${input}b`)).toBe(true);
    expect(regexFullMatch("(a+)+$", `${"a".repeat(40)}!`)).toBe(false);
    expect(regexFullMatch("(a|aa)*c", `${"a".repeat(1000)}c`)).toBe(true);
  });

  it("regex: submissions longer than the bound never match", () => {
    expect(regexFullMatch(".*", "a".repeat(MAX_REGEX_SUBMISSION_LENGTH))).toBe(true);
    expect(regexFullMatch(".*", "a".repeat(MAX_REGEX_SUBMISSION_LENGTH + 1))).toBe(false);
  });

  it("regex: a pattern RE2 cannot compile never matches", () => {
    expect(regexFullMatch("(a)\\1", "aa")).toBe(false);
  });

  it("map: strictly within the radius (haversine)", () => {
    const meta = { location: [51.5074, -0.1278], radius: 10 };
    expect(flagMatches("map", meta, [51.5, -0.12], "flag")).toBe(true);
    expect(flagMatches("map", meta, "51.5,-0.12", "flag")).toBe(true);
    expect(flagMatches("map", meta, [48.8566, 2.3522], "flag")).toBe(false);
    expect(flagMatches("map", meta, "flag{x}", "flag")).toBe(false);
  });

  it("answers no for unknown types, missing flags and arrays where text is needed", () => {
    expect(flagMatches("nope", { flag: "x" }, "x", "flag")).toBe(false);
    expect(flagMatches("plaintext", {}, "x", "flag")).toBe(false);
    expect(flagMatches("plaintext", { flag: "x" }, [1, 2], "flag")).toBe(false);
  });

  it("compares in constant time whatever the lengths", () => {
    expect(constantTimeEqual("a", "a")).toBe(true);
    expect(constantTimeEqual("a", "ab")).toBe(false);
  });
});
