import { describe, expect, it } from "vitest";
import { contrastRatio, mixColours, readableColour, relativeLuminance, textOn } from "./colour.ts";

describe("colour contrast for staff-chosen themes", () => {
  it("computes WCAG luminance and contrast", () => {
    expect(relativeLuminance("#000000")).toBe(0);
    expect(relativeLuminance("#ffffff")).toBe(1);
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    // The built-in filled teal under white text.
    expect(contrastRatio("#0f766e", "#ffffff")).toBeGreaterThan(5.4);
    expect(() => relativeLuminance("teal")).toThrow(/#rrggbb/);
  });

  it("mixes like color-mix in sRGB", () => {
    expect(mixColours("#000000", "#ffffff", 0.5)).toBe("#808080");
    expect(mixColours("#2dd4bf", "#000000", 0)).toBe("#2dd4bf");
    expect(mixColours("#2dd4bf", "#000000", 1)).toBe("#000000");
  });

  it("darkens a light primary only as far as white text needs", () => {
    // The dark preset's teal fails under white text (1.9:1); the fill is darkened until it reads.
    expect(contrastRatio("#2dd4bf", "#ffffff")).toBeLessThan(2);
    const fill = readableColour("#2dd4bf", "#ffffff", "#000000");
    expect(contrastRatio(fill, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    // The step before would not have been enough: no darker than needed.
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16));
    expect(Math.max(r!, g!, b!)).toBeGreaterThan(0x60);
    // A colour that already reads is kept.
    expect(readableColour("#0f766e", "#ffffff", "#000000")).toBe("#0f766e");
  });

  it("moves link colours toward the text until they read on the page", () => {
    const link = readableColour("#fde047", "#f3f6fa", "#0b1220");
    expect(contrastRatio(link, "#f3f6fa")).toBeGreaterThanOrEqual(4.5);
    // Nothing reaches the goal: the target itself.
    expect(readableColour("#ffffff", "#ffffff", "#fefefe")).toBe("#fefefe");
  });

  it("picks the ink for text on a light fill and white on a dark one", () => {
    expect(textOn("#0f766e")).toBe("#ffffff");
    expect(textOn("#2dd4bf")).toBe("#0b1220");
    expect(textOn("#fde047", "#ffffff", "#111111")).toBe("#111111");
  });
});
