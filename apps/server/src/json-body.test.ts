import { describe, expect, it } from "vitest";
import { decodeJsonBody, INVALID_UTF8_MESSAGE } from "./json-body.ts";

describe("decodeJsonBody", () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));
  const refusal = (body: Buffer) => {
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
