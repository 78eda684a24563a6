import { describe, expect, it } from "vitest";
import { decodeJsonBody, INVALID_UTF8_MESSAGE, LONE_SURROGATE_MESSAGE, NUL_MESSAGE, refuseUnstorableText } from "./unstorable-text.ts";

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

describe("decodeJsonBody", () => {
  const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)));
  const refusal = (body: Uint8Array) => {
    try {
      decodeJsonBody(body);
      return null;
    } catch (error) {
      return { code: (error as { code: string }).code, details: (error as { details: unknown }).details };
    }
  };

  it("decodes well-formed UTF-8 as it is, U+FFFD and a byte order mark included", () => {
    expect(decodeJsonBody(bytes('{"name":"Flag 🚩 é 中 \ufffd"}'))).toBe('{"name":"Flag 🚩 é 中 \ufffd"}');
    expect(decodeJsonBody(bytes([0xef, 0xbb, 0xbf], "{}"))).toBe("\ufeff{}");
  });

  it("refuses bytes that are not UTF-8 on the top-level field holding them", () => {
    const flawed = [[0xc3, 0x28], [0xff], [0x80], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x9a]];
    for (const flaw of flawed) {
      expect({ flaw, refusal: refusal(bytes('{"ok":"fine","name":"a', flaw, 'b"}')) }).toEqual({ flaw, refusal: { code: "invalid", details: { name: [INVALID_UTF8_MESSAGE] } } });
    }
    expect(refusal(bytes('{"ok":"🚩","meta":{"list":["x","', [0xff], '"]}}'))).toEqual({ code: "invalid", details: { meta: [INVALID_UTF8_MESSAGE] } });
  });

  it("refuses them on non_field_errors in a key, outside any string or beside an escaped surrogate", () => {
    const everywhere = { code: "invalid", details: { non_field_errors: [INVALID_UTF8_MESSAGE] } };
    expect(refusal(bytes('{"na', [0xff], 'me":"x"}'))).toEqual(everywhere);
    expect(refusal(bytes('{"name":"x"', [0xff], "}"))).toEqual(everywhere);
    expect(refusal(bytes('{"name":"\\ud800', [0xdc], '"}'))).toEqual(everywhere);
    expect(refusal(bytes('["', [0xff], '"]'))).toEqual(everywhere);
  });
});
