import { describe, expect, it } from "vitest";
import { describeUnlock, draftFrom, fieldsOf, patchJsonText, prefillFromHash, unlockSentence } from "./draft.ts";
import "./texts.ts";

describe("the challenge editor's draft", () => {
  const base = () => draftFrom({ name: "Warm up", flag_type: "plaintext", flag_metadata: { flag: "flag{x}" }, score: 50 });

  it("builds the API fields from a valid draft", () => {
    const { fields, errors } = fieldsOf({ ...base(), unlock_requirements: "  3   4 AND ", attempt_limit: 0, tags: [{ type: "tag", text: "web" }] });
    expect(errors).toEqual({});
    expect(fields).toMatchObject({ name: "Warm up", flag_metadata: { flag: "flag{x}" }, unlock_requirements: "3 4 AND", attempt_limit: null, tags: [{ type: "tag", text: "web" }] });
  });

  it("builds exactly the fields the API takes: hints, files and the code fields stay out", () => {
    const draft = { ...base(), challenge_type: "code", code_language: "ruby", code_default: "puts 1", hints: [{ name: "h", penalty: 1, text: "t" }], files: [{ name: "f", url: "/f", size: 1 }] };
    const { fields } = fieldsOf(draft);
    expect(Object.keys(fields).sort()).toEqual(
      ["attempt_limit", "author", "challenge_metadata", "challenge_type", "description", "flag_metadata", "flag_type", "hidden", "maintenance", "name", "points_type", "post_score_explanation", "scheduled_at", "score", "tags", "tiebreaker", "unlock_requirements"],
    );
    expect(fields).toMatchObject({ challenge_metadata: { code_language: "ruby", code_default: "puts 1" }, attempt_limit: null, score: 50, points_type: "basic", tiebreaker: true, hidden: false });
  });

  it("reads and writes the release time: ISO-8601 on the wire, seconds in the picker, none as null", () => {
    expect(draftFrom({ name: "x", scheduled_at: "2026-05-01T18:00:00.000Z" }).scheduled_at).toBe(Date.parse("2026-05-01T18:00:00Z") / 1000);
    expect(draftFrom({ name: "x", scheduled_at: null }).scheduled_at).toBeNull();
    expect(fieldsOf({ ...base(), scheduled_at: Date.parse("2026-05-01T18:00:00Z") / 1000 }).fields.scheduled_at).toBe("2026-05-01T18:00:00.000Z");
    expect(fieldsOf({ ...base(), scheduled_at: null }).fields.scheduled_at).toBeNull();
  });

  it("parses flag metadata text as JSON: invalid JSON is refused, empty becomes {}", () => {
    expect(Object.keys(fieldsOf({ ...base(), flag_metadata: "{oops" }).errors)).toEqual(["flag_metadata"]);
    expect(fieldsOf({ ...base(), flag_metadata: "" }).fields.flag_metadata).toEqual({});
  });

  it("checks hashed flags are 64 lowercase hex characters", () => {
    expect(fieldsOf({ ...base(), flag_type: "hashed", flag_metadata: '{"flag":"abc"}' }).errors).toHaveProperty("flag_metadata");
    expect(fieldsOf({ ...base(), flag_type: "hashed", flag_metadata: JSON.stringify({ flag: "a".repeat(64) }) }).errors).toEqual({});
  });

  it("gives the parser's message for a bad unlock expression", () => {
    expect(fieldsOf({ ...base(), unlock_requirements: "1 AND" }).errors.unlock_requirements).toBe("Binary operation 'AND' needs two operands");
    expect(fieldsOf({ ...base(), unlock_requirements: "1 x" }).errors.unlock_requirements).toBe("Invalid opcode 'x'");
    expect(fieldsOf({ ...base(), unlock_requirements: "1 2" }).errors.unlock_requirements).toBe("Stack contains trailing data");
  });

  it("requires a name and hint names", () => {
    const { errors } = fieldsOf({ ...base(), name: " ", hints: [{ name: "", penalty: 0, text: "t" }] });
    expect(Object.keys(errors).sort()).toEqual(["hints.0.name", "name"]);
  });

  it("keeps a code challenge's language and default code in challenge_metadata", () => {
    const draft = draftFrom({ name: "c", challenge_type: "code", challenge_metadata: { code_language: "ruby", code_default: "puts 1", x: 2 } });
    expect(draft.challenge_metadata).toBe('{\n  "x": 2\n}');
    expect(fieldsOf({ ...draft, flag_metadata: '{"flag":"f"}' }).fields.challenge_metadata).toEqual({ x: 2, code_language: "ruby", code_default: "puts 1" });
  });

  it("reads a prefill from the URL hash, or says it is invalid", () => {
    const hash = encodeURIComponent(JSON.stringify({ name: "From link", score: 300, tags: ["a", { type: "tag", text: "b" }] }));
    const prefill = prefillFromHash(hash);
    expect(prefill.invalid).toBe(false);
    expect(prefill.draft).toMatchObject({ name: "From link", score: 300, tags: [{ type: "tag", text: "a" }, { type: "tag", text: "b" }] });
    expect(prefillFromHash("%7Bnope")).toEqual({ draft: null, invalid: true });
    expect(prefillFromHash("edit")).toEqual({ draft: null, invalid: false });
  });

  it("reads an unlock expression as words", () => {
    const names = new Map([[1, "A"], [2, "B"], [3, "C"]]);
    expect(describeUnlock("1", names)).toBe("A");
    expect(describeUnlock("1 2 3 OR AND", names)).toBe("A AND (B OR C)");
    expect(describeUnlock("1 OR", names)).toBeNull();
  });
});

describe("patchJsonText", () => {
  it("sets and removes keys, keeping the others", () => {
    expect(JSON.parse(patchJsonText('{"x": 1, "cserv_name": "web"}', { x: 3, y: 0 }))).toEqual({ x: 3, y: 0, cserv_name: "web" });
    expect(JSON.parse(patchJsonText('{"x": 1, "difficulty": "hard"}', { difficulty: undefined }))).toEqual({ x: 1 });
  });

  it("writes no keys as the empty text and starts from the empty text", () => {
    expect(patchJsonText('{"x": 1}', { x: undefined })).toBe("");
    expect(JSON.parse(patchJsonText("", { flag: "flag{a}" }))).toEqual({ flag: "flag{a}" });
  });

  it("leaves text that is not an object alone", () => {
    expect(patchJsonText("{oops", { x: 1 })).toBe("{oops");
    expect(patchJsonText("[1]", { x: 1 })).toBe("[1]");
  });
});

describe("unlockSentence", () => {
  const names = new Map([
    [1, "Door"],
    [2, "Window"],
    [3, "Roof"],
  ]);

  it("says when the challenge is always open", () => {
    expect(unlockSentence("", names)).toBe("Always unlocked");
  });

  it("names one challenge, all of several or any of several", () => {
    expect(unlockSentence("1", names)).toBe("Unlocks when Door is solved");
    expect(unlockSentence("1 2 AND", names)).toBe("Unlocks when Door and Window are solved");
    expect(unlockSentence("1 2 AND 3 AND", names)).toBe("Unlocks when Door, Window, and Roof are solved");
    expect(unlockSentence("1 2 OR", names)).toBe("Unlocks when Door or Window is solved");
  });

  it("names a challenge it does not know by its id", () => {
    expect(unlockSentence("1 9 AND", names)).toBe("Unlocks when Door and #9 are solved");
  });

  it("reads a mixed expression with brackets, and nothing for an invalid one", () => {
    expect(unlockSentence("1 2 3 OR AND", names)).toBe("Unlocks when Door AND (Window OR Roof)");
    expect(unlockSentence("1 AND", names)).toBeNull();
  });
});
