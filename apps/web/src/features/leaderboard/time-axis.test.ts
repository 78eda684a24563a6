import { describe, expect, it } from "vitest";
import { timeTickLabel, timeTooltipLabel } from "./time-axis.ts";

const HOUR = 3_600_000;

describe("timeTickLabel", () => {
  it("shows hours and minutes, never milliseconds", () => {
    expect(timeTickLabel(new Date(2030, 0, 5, 10, 30, 37, 600).getTime(), 8 * HOUR)).toBe("10:30");
    expect(timeTickLabel(new Date(2030, 0, 5, 9, 5).getTime(), 2 * HOUR)).toBe("09:05");
  });
  it("adds seconds only on a graph a few minutes long", () => {
    expect(timeTickLabel(new Date(2030, 0, 5, 10, 30, 37, 600).getTime(), 5 * 60_000)).toBe("10:30:37");
    expect(timeTickLabel(new Date(2030, 0, 5, 10, 30, 0).getTime(), 5 * 60_000)).toBe("10:30");
  });
  it("names the day at midnight on a graph spanning days", () => {
    const label = timeTickLabel(new Date(2030, 1, 3).getTime(), 3 * 24 * HOUR);
    expect(label).toMatch(/3/);
    expect(label).not.toMatch(/00:00/);
    expect(timeTickLabel(new Date(2030, 1, 3).getTime(), 6 * HOUR)).toBe("00:00");
  });
});

describe("timeTooltipLabel", () => {
  it("gives the day and the time to the second", () => {
    expect(timeTooltipLabel(new Date(2030, 0, 5, 10, 30, 37, 600).getTime())).toMatch(/5.*10:30:37$/);
  });
});
