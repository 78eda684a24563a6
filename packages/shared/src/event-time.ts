import type { EventTimes } from "./event-gates.ts";

/**
 * The staff date-time pickers work in the browser's local time as `YYYY-MM-DD HH:mm:ss` strings
 * (the value format of @mantine/dates); the config stores seconds since the epoch, null for "not set".
 */

const PICKER_VALUE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** The picker value of a stored time, in local time (null for unset). */
export function pickerValue(seconds: number | null): string | null {
  if (seconds === null) return null;
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Seconds for a picker value (a local `YYYY-MM-DD HH:mm:ss` string or a Date); null when empty or not a real time. */
export function secondsFromPicker(value: string | Date | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : Math.floor(value.getTime() / 1000);
  const match = PICKER_VALUE.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const date = new Date(year!, month! - 1, day!, hour, minute, second);
  // Rolled-over parts (31 February, 25:00) do not survive the round trip.
  if (date.getFullYear() !== year || date.getMonth() !== month! - 1 || date.getDate() !== day || date.getHours() !== hour || date.getMinutes() !== minute) return null;
  return Math.floor(date.getTime() / 1000);
}

/** A span of time in whole days, hours and minutes (rounded down to the minute). */
export function durationParts(seconds: number): { days: number; hours: number; minutes: number } {
  const total = Math.max(0, Math.floor(seconds / 60));
  return { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60), minutes: total % 60 };
}

/** The event's times that a form edits together, in seconds (null is unset). */
export type EventSchedule = EventTimes & { scoreboard_freeze_time: number | null };

/** Why a schedule does not make sense, by the field that should change. */
export type ScheduleProblem = "end_before_start" | "registration_end_before_start" | "registration_opens_after_end" | "registration_closes_after_end" | "freeze_outside_event";

/**
 * The mistakes organisers make with an event's times, each reported on the field to fix: an end at
 * or before its start, registration that opens after the event is over or closes before it opens,
 * and a scoreboard freeze outside the event. Unset times are no limit and never conflict.
 */
export function scheduleProblems(times: EventSchedule): Partial<Record<keyof EventSchedule, ScheduleProblem>> {
  const problems: Partial<Record<keyof EventSchedule, ScheduleProblem>> = {};
  const { start_time: start, end_time: end, register_start_time: regStart, register_end_time: regEnd, scoreboard_freeze_time: freeze } = times;
  if (start !== null && end !== null && end <= start) problems.end_time = "end_before_start";
  if (regStart !== null && regEnd !== null && regEnd <= regStart) problems.register_end_time = "registration_end_before_start";
  if (regStart !== null && end !== null && regStart >= end) problems.register_start_time = "registration_opens_after_end";
  if (regEnd !== null && end !== null && regEnd > end && !problems.register_end_time) problems.register_end_time = "registration_closes_after_end";
  if (freeze !== null && ((start !== null && freeze < start) || (end !== null && freeze > end))) problems.scoreboard_freeze_time = "freeze_outside_event";
  return problems;
}

/**
 * The years an event's copyright line names: the year it runs ("2026"), or its first and last
 * ("2025 - 2026") when it spans a new year; the current year while its dates are not set.
 */
export function eventYears(start: number | null, end: number | null, now: number): string {
  const year = (seconds: number) => new Date(seconds * 1000).getFullYear();
  const first = start !== null ? year(start) : end !== null ? year(end) : year(now);
  const last = end !== null ? year(end) : first;
  return first === last ? String(first) : `${Math.min(first, last)} - ${Math.max(first, last)}`;
}

/** What a picker's typed hour and minute fields make of its value: a new value, or the field still missing. */
export type TypedPickerTime = { value: string | null } | { missing: "hours" };

/**
 * The picker value its typed fields say, so what the field shows is what is saved: an hour alone
 * means on the hour (17 is 17:00), minutes without an hour are refused (which hour is anyone's
 * guess), and a time typed before any day is picked falls on `today`. Both fields empty keep `current`.
 */
export function typedPickerTime(current: string | null, hours: string, minutes: string, today: Date): TypedPickerTime {
  const h = hours.trim();
  const m = minutes.trim();
  if (h === "" && m === "") return { value: current };
  if (h === "") return { missing: "hours" };
  const hour = Number(h);
  const minute = m === "" ? 0 : Number(m);
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || !Number.isInteger(minute) || minute < 0 || minute > 59) return { value: current };
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = current?.slice(0, 10) ?? `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  return { value: `${day} ${pad(hour)}:${pad(minute)}:00` };
}
