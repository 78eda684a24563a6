import { describe, expect, it } from "vitest";
import { formatEventTime, parseEventTime } from "./event-time.ts";

describe("event time inputs", () => {
  it("reads yyyy-MM-dd H:mm as local time in seconds, and writes it back the same", () => {
    const seconds = parseEventTime("2031-03-09 7:05");
    expect(seconds).toBe(new Date(2031, 2, 9, 7, 5).getTime() / 1000);
    expect(formatEventTime(seconds!)).toBe("2031-03-09 7:05");
    expect(formatEventTime(parseEventTime(" 2031-12-31 23:59 ")!)).toBe("2031-12-31 23:59");
  });

  it("treats empty as unset", () => {
    expect(parseEventTime("  ")).toBeNull();
    expect(formatEventTime(null)).toBe("");
  });

  it.each(["2031-02-30 10:00", "2031-13-01 10:00", "2031-01-01 24:00", "2031-01-01 10:60", "2031/01/01 10:00", "tomorrow", "2031-01-01"])("refuses %s", (text) => {
    expect(parseEventTime(text)).toBeUndefined();
  });
});
