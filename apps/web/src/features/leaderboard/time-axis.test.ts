import { describe, expect, it } from "vitest";
import { clockTime, timeTickLabel, timeTooltipLabel } from "./time-axis.ts";

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

describe("clockTime", () => {
  it("is 24-hour like the axis, afternoon and morning alike", () => {
    expect(clockTime(new Date(2030, 0, 5, 14, 5, 59).getTime())).toBe("14:05");
    expect(clockTime(new Date(2030, 0, 5, 9, 30).getTime())).toBe("09:30");
    expect(clockTime(new Date(2030, 0, 5, 0, 0).getTime())).toBe("00:00");
  });
});
