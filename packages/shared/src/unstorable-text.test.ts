import { describe, expect, it } from "vitest";
import { LONE_SURROGATE_MESSAGE, NUL_MESSAGE, refuseUnstorableText } from "./unstorable-text.ts";

const refusal = (input: unknown) => {
  try {
    refuseUnstorableText(input);
    return null;
  } catch (error) {
    return { code: (error as { code: string }).code, details: (error as { details: unknown }).details };
  }
};

describe("refuseUnstorableText", () => {
  it("refuses a lone high or low surrogate anywhere, on the top-level field holding it", () => {
    for (const text of ["\ud800", "a\ud800", "\udc00b", "x\udfff\ud800y", "\ud83d"]) {
      expect(refusal({ ok: "fine", name: text })).toEqual({ code: "invalid", details: { name: [LONE_SURROGATE_MESSAGE] } });
    }
    expect(refusal({ meta: { list: ["ok", "\udc00"] } })).toEqual({ code: "invalid", details: { meta: [LONE_SURROGATE_MESSAGE] } });
    expect(refusal({ ["k\ud800"]: "v" })).toEqual({ code: "invalid", details: { non_field_errors: [LONE_SURROGATE_MESSAGE] } });
    expect(refusal(["\ud800"])).toEqual({ code: "invalid", details: { non_field_errors: [LONE_SURROGATE_MESSAGE] } });
  });

  it("accepts surrogate pairs (text beyond the Basic Multilingual Plane) and plain text", () => {
    expect(refusal({ name: "Flag 🚩 \ud83d\udea9", n: 1, b: null, list: ["é", "中"] })).toBeNull();
  });

  it("still refuses NUL characters with their own message", () => {
    expect(refusal({ name: "a\u0000b" })).toEqual({ code: "invalid", details: { name: [NUL_MESSAGE] } });
  });
});
