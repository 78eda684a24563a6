import { describe, expect, it } from "vitest";
import { accentContrastShortfall, contrastRatio, mixColours, readableColour, relativeLuminance, textOn } from "./colour.ts";

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

describe("the accent shortfall staff are warned of", () => {
  it("is none for accents that carry white text and read on the light page", () => {
    expect(accentContrastShortfall("#0f766e")).toBeNull();
    expect(accentContrastShortfall("#1e1b4b", "#f3f6fa")).toBeNull();
  });

  it("is the weaker of white text on it and it on the page, rounded down so 4.46 is not shown as 4.5", () => {
    // Gold under white text: 1.4:1.
    expect(accentContrastShortfall("#ffd700")).toBe(1.4);
    // The dark preset's teal: 1.86:1 under white, lower still on the light grey page.
    expect(accentContrastShortfall("#2dd4bf")).toBe(1.8);
    expect(accentContrastShortfall("#2dd4bf", "#f3f6fa")).toBe(1.7);
    // 4.48:1 is short of 4.5 and says 4.4, never a passing-looking 4.5.
    expect(accentContrastShortfall("#777777")).toBe(4.4);
    // #767676 carries white text at 4.54:1 but reads at 4.19:1 on the grey page.
    expect(accentContrastShortfall("#767676")).toBeNull();
    expect(accentContrastShortfall("#767676", "#f3f6fa")).toBe(4.1);
  });

  it("says nothing of a colour still being typed", () => {
    expect(accentContrastShortfall("#ffd")).toBeNull();
    expect(accentContrastShortfall("")).toBeNull();
  });
});
