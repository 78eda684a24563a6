import { describe, expect, it } from "vitest";
import { seriesStyle } from "./series-style.ts";
import { SERIES_COLOURS } from "./Chart.tsx";

describe("chart series styles", () => {
  it("gives a top ten ten different lines on the eight-colour palettes", () => {
    for (const palette of [SERIES_COLOURS.light, SERIES_COLOURS.dark]) {
      const styles = Array.from({ length: 10 }, (_, i) => seriesStyle(i, palette));
      expect(new Set(styles.map((s) => `${s.color} ${s.dash}`)).size).toBe(10);
      expect(styles.slice(0, 8).every((s) => s.dash === "solid")).toBe(true);
      expect(styles[8]).toEqual({ color: palette[0], dash: "dashed" });
      expect(styles[9]).toEqual({ color: palette[1], dash: "dashed" });
    }
  });

  it("moves on to dotted lines, then starts over", () => {
    const palette = ["#111111", "#222222"];
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => seriesStyle(i, palette).dash)).toEqual(["solid", "solid", "dashed", "dashed", "dotted", "dotted", "solid"]);
  });
});
