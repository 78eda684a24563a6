import { describe, expect, it } from "vitest";
import { percentOf, pointDistribution } from "./stats.ts";

describe("statistics helpers", () => {
  it("rounds percentages to two decimals", () => {
    expect(percentOf(1, 3)).toBe(33.33);
    expect(percentOf(2, 3)).toBe(66.67);
    expect(percentOf(5, 5)).toBe(100);
    expect(percentOf(0, 0)).toBe(0);
  });

  it("orders the point distribution by points", () => {
    expect(pointDistribution({ "300": 1, "0": 4, "25": 2 })).toEqual([
      { points: 0, teams: 4 },
      { points: 25, teams: 2 },
      { points: 300, teams: 1 },
    ]);
  });
});
