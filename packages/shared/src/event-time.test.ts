import { describe, expect, it } from "vitest";
import { durationParts, eventYears, pickerValue, scheduleProblems, secondsFromPicker, typedPickerTime } from "./event-time.ts";

const unset = { start_time: null, end_time: null, register_start_time: null, register_end_time: null, scoreboard_freeze_time: null };

describe("event time pickers", () => {
  it("reads a picker value as local time in seconds, and writes it back the same", () => {
    const seconds = secondsFromPicker("2031-03-09 07:05:00");
    expect(seconds).toBe(new Date(2031, 2, 9, 7, 5).getTime() / 1000);
    expect(pickerValue(seconds)).toBe("2031-03-09 07:05:00");
    expect(secondsFromPicker(new Date(2031, 11, 31, 23, 59))).toBe(new Date(2031, 11, 31, 23, 59).getTime() / 1000);
  });

  it("treats empty and impossible values as unset", () => {
    expect(secondsFromPicker(null)).toBeNull();
    expect(secondsFromPicker("")).toBeNull();
    expect(pickerValue(null)).toBeNull();
    for (const text of ["2031-02-30 10:00:00", "2031-13-01 10:00:00", "2031-01-01 24:00:00", "tomorrow"]) expect(secondsFromPicker(text)).toBeNull();
  });

  it("saves the hour and minutes typed, an hour alone on the hour, and refuses minutes without an hour", () => {
    const today = new Date(2031, 2, 9, 15, 0);
    expect(typedPickerTime("2031-04-01 08:00:00", "18", "30", today)).toEqual({ value: "2031-04-01 18:30:00" });
    expect(typedPickerTime("2031-04-01 08:00:00", "17", "", today)).toEqual({ value: "2031-04-01 17:00:00" });
    expect(typedPickerTime(null, "18", "", today)).toEqual({ value: "2031-03-09 18:00:00" });
    expect(typedPickerTime(null, "9", "5", today)).toEqual({ value: "2031-03-09 09:05:00" });
    expect(typedPickerTime("2031-04-01 08:00:00", "", "30", today)).toEqual({ missing: "hours" });
    expect(typedPickerTime("2031-04-01 08:00:00", "", "", today)).toEqual({ value: "2031-04-01 08:00:00" });
    expect(typedPickerTime(null, "", "", today)).toEqual({ value: null });
  });

  it("splits a span into days, hours and minutes", () => {
    expect(durationParts(2 * 86_400 + 3 * 3600 + 4 * 60 + 59)).toEqual({ days: 2, hours: 3, minutes: 4 });
    expect(durationParts(-5)).toEqual({ days: 0, hours: 0, minutes: 0 });
  });
});

describe("schedule problems", () => {
  it("finds nothing in an unset or sensible schedule", () => {
    expect(scheduleProblems(unset)).toEqual({});
    expect(scheduleProblems({ register_start_time: 0, register_end_time: 150, start_time: 100, end_time: 200, scoreboard_freeze_time: 180 })).toEqual({});
  });

  it("puts each mistake on the field to fix", () => {
    expect(scheduleProblems({ ...unset, start_time: 200, end_time: 100 })).toEqual({ end_time: "end_before_start" });
    expect(scheduleProblems({ ...unset, start_time: 200, end_time: 200 })).toEqual({ end_time: "end_before_start" });
    expect(scheduleProblems({ ...unset, register_start_time: 50, register_end_time: 10 })).toEqual({ register_end_time: "registration_end_before_start" });
    expect(scheduleProblems({ ...unset, end_time: 100, register_start_time: 100 })).toEqual({ register_start_time: "registration_opens_after_end" });
    expect(scheduleProblems({ ...unset, end_time: 100, register_end_time: 101 })).toEqual({ register_end_time: "registration_closes_after_end" });
    expect(scheduleProblems({ ...unset, start_time: 100, end_time: 200, scoreboard_freeze_time: 50 })).toEqual({ scoreboard_freeze_time: "freeze_outside_event" });
    expect(scheduleProblems({ ...unset, end_time: 200, scoreboard_freeze_time: 250 })).toEqual({ scoreboard_freeze_time: "freeze_outside_event" });
  });
});

describe("event years", () => {
  const at = (year: number, month = 5) => new Date(year, month, 15).getTime() / 1000;
  it("names the year the event runs, or the two it spans", () => {
    expect(eventYears(at(2026), at(2026, 6), at(2030))).toBe("2026");
    expect(eventYears(at(2025, 11), at(2026, 0), at(2030))).toBe("2025 - 2026");
    expect(eventYears(at(2027), null, at(2030))).toBe("2027");
    expect(eventYears(null, at(2028), at(2030))).toBe("2028");
  });

  it("is this year while no dates are set", () => {
    expect(eventYears(null, null, at(2031))).toBe("2031");
  });
});
