import { describe, expect, it } from "vitest";
import {
  CHALLENGE_IMPORT_KEYS,
  parseFlagMetadata,
  parseJsonText,
  PORT_MESSAGES,
  remapUnlock,
  toCsv,
  validateCategoryData,
  validateChallengeData,
  validateEventData,
} from "./port.ts";

const challenge = (extra: Record<string, unknown> = {}) => ({
  name: "Warm up",
  description: "Say hi",
  challenge_type: "default",
  challenge_metadata: {},
  flag_type: "plaintext",
  author: "sam",
  score: 100,
  unlocks: [],
  flag_metadata: { flag: "flag{hi}" },
  hints: [{ name: "Nudge", penalty: 5, text: "Say hello" }],
  files: [],
  ...extra,
});

describe("validateChallengeData", () => {
  it("accepts a challenge with every required key and fills the optional ones", () => {
    const result = validateChallengeData(challenge());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.data).toMatchObject({ points_type: "basic", hidden: false, tiebreaker: true, unlock_requirements: "", tags: [] });
  });

  it.each(CHALLENGE_IMPORT_KEYS)("refuses a challenge without %s as 'Invalid challenge data.'", (key) => {
    const data: Record<string, unknown> = challenge();
    delete data[key];
    const result = validateChallengeData(data);
    expect(result).toMatchObject({ ok: false, message: PORT_MESSAGES.invalidChallenge, details: { [key]: ["This field is required"] } });
  });

  it("refuses bad values: a flag type we do not know, hashed flags that are not 64 hex", () => {
    expect(validateChallengeData(challenge({ flag_type: "magic" })).ok).toBe(false);
    const hashed = validateChallengeData(challenge({ flag_type: "hashed", flag_metadata: { flag: "abc" } }));
    expect(hashed).toMatchObject({ ok: false, message: PORT_MESSAGES.invalidChallenge });
    expect(validateChallengeData(challenge({ flag_type: "hashed", flag_metadata: { flag: "a".repeat(64) } })).ok).toBe(true);
  });

  it("reads flag metadata given as a JSON string, and skips hints without text", () => {
    const result = validateChallengeData(challenge({ flag_metadata: '{"flag":"flag{x}"}', hints: [{ name: "Empty", penalty: 0 }, { name: "Blank", penalty: 1, text: "" }, { name: "Real", penalty: 2, text: "t" }] }));
    expect(result.ok && result.data.flag_metadata).toEqual({ flag: "flag{x}" });
    expect(result.ok && result.data.hints).toEqual([{ name: "Real", penalty: 2, text: "t", requirements: [] }]);
  });

  it("refuses non-objects", () => {
    expect(validateChallengeData([]).ok).toBe(false);
    expect(validateChallengeData(null).ok).toBe(false);
  });
});

describe("validateCategoryData", () => {
  const category = (challenges: unknown[]) => ({ name: "Web", contained_type: "jeopardy", description: "", challenges });

  it("accepts challenges whose unlocks refer to challenges of the category", () => {
    const result = validateCategoryData(category([challenge({ id: 1 }), challenge({ id: 2, unlock_requirements: "1" })]));
    expect(result.ok).toBe(true);
  });

  it("refuses an unlock naming a challenge outside the category, a missing id and duplicate ids", () => {
    expect(validateCategoryData(category([challenge({ id: 1, unlock_requirements: "7" })]))).toMatchObject({ ok: false, message: PORT_MESSAGES.invalidCategory });
    expect(validateCategoryData(category([challenge()]))).toMatchObject({ ok: false, details: { "challenges.0.id": ["This field is required"] } });
    expect(validateCategoryData(category([challenge({ id: 1 }), challenge({ id: 1 })])).ok).toBe(false);
  });

  it("refuses a category without its keys, or with a challenge missing a challenge key", () => {
    expect(validateCategoryData({ name: "x" })).toMatchObject({ ok: false, message: PORT_MESSAGES.invalidCategory });
    const { unlocks: _u, ...noUnlocks } = challenge({ id: 1 });
    expect(validateCategoryData(category([noUnlocks]))).toMatchObject({ ok: false, details: { "challenges.0.unlocks": ["This field is required"] } });
  });

  it("refuses an invalid unlock expression with the parser's message", () => {
    const result = validateCategoryData(category([challenge({ id: 1 }), challenge({ id: 2, unlock_requirements: "1 OR" })]));
    expect(result).toMatchObject({ ok: false, details: { "challenges.1.unlock_requirements": ["Binary operation 'OR' needs two operands"] } });
  });
});

describe("validateEventData", () => {
  it("allows unlocks across the event's categories but not outside it", () => {
    const event = (unlock: string) => ({
      version: 1,
      config: { event_name: "Moved" },
      categories: [
        { name: "A", contained_type: "jeopardy", description: "", challenges: [challenge({ id: 1 })] },
        { name: "B", contained_type: "campaign", description: "", challenges: [challenge({ id: 2, unlock_requirements: unlock })] },
      ],
    });
    expect(validateEventData(event("1")).ok).toBe(true);
    expect(validateEventData(event("3")).ok).toBe(false);
  });

  it("checks the configuration key by key and refuses unknown keys", () => {
    const event = (config: unknown) => ({ version: 1, config, categories: [] });
    expect(validateEventData(event({ flag_prefix: "ctf", experiments: { importEntire: true } }))).toMatchObject({ ok: true, data: { config: { flag_prefix: "ctf" } } });
    expect(validateEventData(event({ flag_prefix: "no spaces" }))).toMatchObject({ ok: false, message: "Invalid event data.", details: { "config.flag_prefix": [expect.any(String)] } });
    expect(validateEventData(event({ not_a_key: 1 }))).toMatchObject({ ok: false, message: "Invalid event data." });
    expect(validateEventData({ version: 1, categories: [] })).toMatchObject({ ok: false, details: { config: ["This field is required"] } });
  });
});

describe("helpers", () => {
  it("parseJsonText answers 'Failed to parse JSON.' for text that is not JSON", () => {
    expect(parseJsonText("{nope")).toEqual({ ok: false, message: "Failed to parse JSON." });
    expect(parseJsonText('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it("parseFlagMetadata: objects pass, JSON strings parse, empty becomes an empty string, other text fails", () => {
    expect(parseFlagMetadata({ flag: "x" })).toEqual({ ok: true, value: { flag: "x" } });
    expect(parseFlagMetadata('{"flag":"x"}')).toEqual({ ok: true, value: { flag: "x" } });
    expect(parseFlagMetadata("  ")).toEqual({ ok: true, value: "" });
    expect(parseFlagMetadata("flag{x}")).toEqual({ ok: false });
    expect(parseFlagMetadata("[1]")).toEqual({ ok: false });
  });

  it("remapUnlock rewrites ids and keeps operators", () => {
    expect(remapUnlock("1  2 AND 3 OR", new Map([[1, 10], [2, 20], [3, 30]]))).toBe("10 20 AND 30 OR");
  });

  it("toCsv quotes where needed and defuses spreadsheet formulas in text", () => {
    expect(toCsv(["a", "b"], [["x,y", 'say "hi"'], ["=SUM(A1)", -3]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),-3\r\n');
  });
});
