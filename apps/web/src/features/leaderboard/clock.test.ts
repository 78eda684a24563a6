import { describe, expect, it } from "vitest";
import { formatClock, MAX_ROW, MIN_ROW, rowHeight } from "./clock.ts";

describe("formatClock", () => {
  it("shows hours, minutes and seconds, and days only when there are some", () => {
    expect(formatClock(0)).toBe("00:00:00");
    expect(formatClock(8 * 3600 + 59 * 60 + 37.9)).toBe("08:59:37");
    expect(formatClock(2 * 86_400 + 4 * 3600 + 5 * 60 + 6)).toBe("2 d 04:05:06");
    expect(formatClock(-5)).toBe("00:00:00");
  });
});

describe("rowHeight", () => {
  it("caps a few rows at the largest height instead of stretching them over the room", () => {
    expect(rowHeight(900, 2)).toBe(MAX_ROW);
    expect(rowHeight(900, 0)).toBe(MAX_ROW);
  });
  it("shares the room among rows that fit, and keeps the smallest legible height when they do not", () => {
    expect(rowHeight(900, 12)).toBe(75);
    expect(rowHeight(900, 40)).toBe(MIN_ROW);
  });
});
