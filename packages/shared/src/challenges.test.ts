import { describe, expect, it } from "vitest";
import { ZCreateChallengeInput, ZSubmitFlagInput, ZUpdateChallengeInput } from "./challenges.ts";
import { difficultyLabel, entitySlug, ratingPercent, slugify } from "./constants.ts";
import { flagFormatMatches, flagPartialOk } from "./flag-format.ts";
import {
  flagMetadataError,
  haversineKm,
  mapFlagMatches,
  normaliseLenient,
  normaliseLongText,
  parseMapSubmission,
  regexSafetyError,
} from "./flags.ts";
import { challengeValue, decayParams, decayValue, graphSpan, graphStart, solveWorth } from "./scoring.ts";
import { isUnlocked, parseUnlock, unlockChallengeIds, unlockError, unlockTree } from "./unlocks.ts";

describe("unlock expressions", () => {
  it("treats empty and null as unlocked", () => {
    expect(isUnlocked("", new Set())).toBe(true);
    expect(isUnlocked(null, new Set())).toBe(true);
    expect(unlockError("")).toBeNull();
  });

  it("evaluates ids, AND and OR in postfix", () => {
    expect(isUnlocked("1", new Set([1]))).toBe(true);
    expect(isUnlocked("1", new Set([2]))).toBe(false);
    expect(isUnlocked("1 2 AND", new Set([1]))).toBe(false);
    expect(isUnlocked("1 2 AND", new Set([1, 2]))).toBe(true);
    expect(isUnlocked("1 2 OR", new Set([2]))).toBe(true);
    expect(isUnlocked("1 2 OR 3 AND", new Set([2]))).toBe(false);
    expect(isUnlocked("1 2 OR 3 AND", new Set([2, 3]))).toBe(true);
    expect(isUnlocked("  4\n5\tOR ", new Set([5]))).toBe(true);
  });

  it("answers the spec's four messages", () => {
    expect(unlockError("1 OR")).toBe("Binary operation 'OR' needs two operands");
    expect(unlockError("AND")).toBe("Binary operation 'AND' needs two operands");
    expect(unlockError("1 x OR")).toBe("Invalid opcode 'x'");
    expect(unlockError("1 2 and")).toBe("Invalid opcode 'and'");
    expect(unlockError("   ")).toBe("Stack exhausted. Nothing to do.");
    expect(unlockError("1 2")).toBe("Stack contains trailing data");
    expect(unlockError("1 2 3 OR")).toBe("Stack contains trailing data");
  });

  it("never unlocks with an invalid expression and lists the ids it names", () => {
    expect(isUnlocked("1 2", new Set([1, 2]))).toBe(false);
    expect(parseUnlock("1 2 OR").ok).toBe(true);
    expect(unlockChallengeIds("3 1 OR 3 AND")).toEqual([3, 1]);
  });
});

describe("unlock trees", () => {
  it("merges chains of one operator and nests mixed ones", () => {
    expect(unlockTree("7")).toEqual({ kind: "id", id: 7 });
    expect(unlockTree("1 2 AND 3 AND")).toEqual({ kind: "all", of: [{ kind: "id", id: 1 }, { kind: "id", id: 2 }, { kind: "id", id: 3 }] });
    expect(unlockTree("1 2 OR 3 AND")).toEqual({
      kind: "all",
      of: [{ kind: "any", of: [{ kind: "id", id: 1 }, { kind: "id", id: 2 }] }, { kind: "id", id: 3 }],
    });
    expect(unlockTree("1 2 3 AND OR")).toEqual({
      kind: "any",
      of: [{ kind: "id", id: 1 }, { kind: "all", of: [{ kind: "id", id: 2 }, { kind: "id", id: 3 }] }],
    });
  });

  it("has no tree for an empty or invalid expression", () => {
    expect(unlockTree("")).toBeNull();
    expect(unlockTree(null)).toBeNull();
    expect(unlockTree("1 AND")).toBeNull();
    expect(unlockTree("1 2")).toBeNull();
  });
});

describe("flag types", () => {
  it("normalises lenient flags: accents, case, whitespace and the prefix", () => {
    expect(normaliseLenient("FLAG{ Héllo  World }", "flag")).toBe("flag{helloworld}");
    expect(normaliseLenient("hello world", "flag")).toBe("flag{helloworld}");
    expect(normaliseLenient("Ctf{x}", "CTF")).toBe("ctf{x}");
    expect(normaliseLenient("flag{a}", "flag")).toBe(normaliseLenient("a", "flag"));
  });

  it("keeps only ASCII letters for long_text", () => {
    expect(normaliseLongText("The quick, brown fox! 42")).toBe("thequickbrownfox");
    expect(normaliseLongText("naïve")).toBe("nave");
  });

  it("computes haversine distances with R = 6373 km and compares strictly", () => {
    const london: [number, number] = [51.5074, -0.1278];
    const paris: [number, number] = [48.8566, 2.3522];
    expect(haversineKm(london, paris)).toBeCloseTo(343.6, 0);
    expect(haversineKm(london, london)).toBe(0);
    const d = haversineKm(london, paris);
    expect(mapFlagMatches(paris, london, d)).toBe(false);
    expect(mapFlagMatches(paris, london, d + 0.001)).toBe(true);
  });

  it("parses map submissions as arrays or strings", () => {
    expect(parseMapSubmission([1.5, 2])).toEqual([1.5, 2]);
    expect(parseMapSubmission("1.5, 2")).toEqual([1.5, 2]);
    expect(parseMapSubmission("[1.5, 2]")).toEqual([1.5, 2]);
    expect(parseMapSubmission("91,0")).toBeNull();
    expect(parseMapSubmission("a,b")).toBeNull();
    expect(parseMapSubmission([1])).toBeNull();
    expect(parseMapSubmission("flag{x}")).toBeNull();
  });

  it("vets regexes: RE2 syntax only (no backreferences), broken patterns refused", () => {
    expect(regexSafetyError("flag\\{[a-z]+\\}")).toBeNull();
    expect(regexSafetyError("flag\\{(ab|cd)*\\}")).toBeNull();
    expect(regexSafetyError("(?:a+)?b")).toBeNull();
    expect(regexSafetyError("(a+)+$")).toBeNull();
    expect(regexSafetyError("(a)\\1")).toMatch(/RE2 syntax/);
    expect(regexSafetyError("(")).toMatch(/does not compile: missing closing \)/);
    expect(regexSafetyError("")).toMatch(/empty/);
  });

  it("checks flag metadata per type", () => {
    expect(flagMetadataError("plaintext", { flag: "flag{x}" })).toBeNull();
    expect(flagMetadataError("plaintext", {})).toMatch(/non-empty/);
    const digest = "7644d4744c3ae2e47564e493f15496d84c90ddf870e564882596de965c7d062c"; // sha256("flag{x}")
    expect(flagMetadataError("hashed", { flag: digest })).toBeNull();
    expect(flagMetadataError("hashed", { flag: digest.toUpperCase() })).toMatch(/64 lowercase/);
    expect(flagMetadataError("regex", { flag: "(a+)+" })).toBeNull();
    expect(flagMetadataError("regex", { flag: "x(?=y)" })).toMatch(/RE2 syntax/);
    expect(flagMetadataError("map", { location: [10, 20], radius: 5 })).toBeNull();
    expect(flagMetadataError("map", { location: [100, 20], radius: 5 })).toMatch(/location/);
    expect(flagMetadataError("map", { location: [10, 20], radius: 0 })).toMatch(/radius/);
    expect(flagMetadataError("nope", {})).toMatch(/Unknown flag type/);
    expect(flagMetadataError("plaintext", { flag: "x", decay_constant: 2 })).toMatch(/decay_constant/);
  });
});

describe("client flag format", () => {
  const base = { challengeType: "default", challengeMetadata: {}, flagPrefix: "flag" };
  it("expects <prefix>{...} by default", () => {
    expect(flagFormatMatches(base, "flag{abc}")).toBe(true);
    expect(flagFormatMatches(base, "flag{}")).toBe(false);
    expect(flagFormatMatches(base, "ctf{abc}")).toBe(false);
    expect(flagFormatMatches({ ...base, flagPrefix: "ctf" }, "ctf{abc}")).toBe(true);
  });
  it("uses flag_regex when set, and flag_partial_regex while typing", () => {
    const custom = { ...base, challengeMetadata: { flag_regex: "[0-9]{4}", flag_partial_regex: "^[0-9]{0,4}$" } };
    expect(flagFormatMatches(custom, "1234")).toBe(true);
    expect(flagFormatMatches(custom, "flag{1234}")).toBe(false);
    expect(flagPartialOk(custom, "12")).toBe(true);
    expect(flagPartialOk(custom, "12a")).toBe(false);
  });
  it("guides the default shape while typing", () => {
    expect(flagPartialOk(base, "fl")).toBe(true);
    expect(flagPartialOk(base, "flag{ab")).toBe(true);
    expect(flagPartialOk(base, "flx")).toBe(false);
  });
  it("accepts any non-empty value for free-text types", () => {
    for (const challengeType of ["freeform", "longText", "code"]) {
      expect(flagFormatMatches({ ...base, challengeType }, "anything at all")).toBe(true);
      expect(flagFormatMatches({ ...base, challengeType }, "  ")).toBe(false);
    }
  });
});

describe("scoring", () => {
  it("decays as round(min + (score - min) * c ^ (n - 1))", () => {
    const params = { decayConstant: 0.99, minPoints: 100 };
    expect(decayValue(500, 1, params)).toBe(500);
    expect(decayValue(500, 2, params)).toBe(496);
    expect(decayValue(500, 0, params)).toBe(500);
    expect(decayValue(500, 100, params)).toBe(Math.round(100 + 400 * 0.99 ** 99));
    expect(decayValue(1000, 3, { decayConstant: 0.5, minPoints: 200 })).toBe(400);
  });
  it("reads decay parameters with the contract's defaults", () => {
    expect(decayParams({})).toEqual({ decayConstant: 0.99, minPoints: 100 });
    expect(decayParams({ decay_constant: 0.9, min_points: 50 })).toEqual({ decayConstant: 0.9, minPoints: 50 });
    expect(challengeValue("basic", 300, 10, {})).toBe(300);
    expect(challengeValue("decay", 300, 0, {})).toBe(300);
    expect(challengeValue("decay", 300, 2, {})).toBe(298);
  });
  it("never lets a penalty push a solve below zero", () => {
    expect(solveWorth(100, 30)).toBe(70);
    expect(solveWorth(100, 300)).toBe(0);
  });
  it("labels difficulty and rates as the positive share rounded to 0.1", () => {
    expect(difficultyLabel(49)).toBeNull();
    expect(difficultyLabel(50)).toBe("Trivial");
    expect(difficultyLabel(100)).toBe("Easy");
    expect(difficultyLabel(250)).toBe("Medium");
    expect(difficultyLabel(500)).toBe("Hard");
    expect(difficultyLabel(1000)).toBe("Insane");
    expect(ratingPercent(0, 0)).toBeNull();
    expect(ratingPercent(2, 1)).toBe(66.7);
    expect(ratingPercent(1, 2)).toBe(33.3);
    expect(ratingPercent(5, 0)).toBe(100);
  });
});

describe("slugs", () => {
  it("collapses non-alphanumeric runs to dashes", () => {
    expect(slugify("Web Exploitation 101!")).toBe("web-exploitation-101");
    expect(slugify("  C++ & Rust -- Basics ")).toBe("c-rust-basics");
  });
  it("prefers the metadata slug, then the name, then the id", () => {
    expect(entitySlug({ id: 3, name: "Crypto", metadataSlug: "crypto-fun" })).toBe("crypto-fun");
    expect(entitySlug({ id: 3, name: "Crypto" })).toBe("crypto");
    expect(entitySlug({ id: 3, name: "???" })).toBe("3");
  });
});

describe("challenge input", () => {
  it("applies defaults and normalises tags", () => {
    const parsed = ZCreateChallengeInput.parse({ category: 1, name: "A", score: 100, tags: ["web", { type: "tag", text: "easy" }], flag_metadata: { flag: "flag{x}" } });
    expect(parsed.tiebreaker).toBe(true);
    expect(parsed.attempt_limit).toBeNull();
    expect(parsed.tags).toEqual([
      { type: "tag", text: "web" },
      { type: "tag", text: "easy" },
    ]);
  });
  it("rejects an invalid unlock expression with the spec's message", () => {
    const result = ZCreateChallengeInput.safeParse({ category: 1, name: "A", score: 1, unlock_requirements: "1 OR", flag_metadata: { flag: "x" } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Binary operation 'OR' needs two operands");
    expect(ZUpdateChallengeInput.safeParse({ unlock_requirements: "1 2" }).error?.issues[0]?.message).toBe("Stack contains trailing data");
  });
  it("accepts map flags as pairs and ids as digit strings", () => {
    expect(ZSubmitFlagInput.parse({ challenge: "4", flag: [1, 2] })).toEqual({ challenge: 4, flag: [1, 2] });
  });
});

describe("graphStart", () => {
  const first = Date.parse("2026-03-01T10:00:00Z");
  it("starts at the first solve when no start time is set, never at 1970", () => {
    expect(graphStart([first + 60_000, first], null)).toBe(first);
  });
  it("starts at the start time when it is set", () => {
    expect(graphStart([first], first / 1000 - 3600)).toBe(first - 3_600_000);
  });
  it("starts at a solve made before the start time (staff testing)", () => {
    expect(graphStart([first], first / 1000 + 3600)).toBe(first);
  });
  it("has no start without solves or a start time", () => {
    expect(graphStart([], null)).toBeNull();
  });
});

describe("graphSpan", () => {
  const start = Date.parse("2030-01-01T10:00:00Z");
  const now = start + 8 * 3_600_000;
  it("runs from the event's start to now while it lasts", () => {
    expect(graphSpan([start + 60_000], start / 1000, start / 1000 + 86_400, now)).toEqual({ start, end: now });
  });
  it("stops at the event's end once it is over, or at a later solve", () => {
    const end = start + 3_600_000;
    expect(graphSpan([start + 60_000], start / 1000, end / 1000, now)).toEqual({ start, end });
    expect(graphSpan([end + 60_000], start / 1000, end / 1000, now)).toEqual({ start, end: end + 60_000 });
  });
  it("starts at the first solve without a start time, and is null with nothing to draw from", () => {
    expect(graphSpan([start + 5000, start + 1000], null, null, now)).toEqual({ start: start + 1000, end: now });
    expect(graphSpan([], null, null, now)).toBeNull();
  });
});
