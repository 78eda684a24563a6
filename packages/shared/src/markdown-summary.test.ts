import { describe, expect, it } from "vitest";
import { markdownSummary } from "./markdown-summary.ts";

describe("markdown summary", () => {
  it("keeps the words of a category description and drops its markup", () => {
    expect(markdownSummary("## Crypto\n\nBreak **weak** ciphers with [CyberChef](https://example.test) and `xor`.\n\n- one\n- two")).toBe(
      "Crypto Break weak ciphers with CyberChef and xor. one two",
    );
    expect(markdownSummary("> _Quoted_ ~~old~~ text")).toBe("Quoted old text");
  });
});
