import { TIMINGS } from "./constants.ts";

/** A server copy closes its sockets with this code (Service Restart) when it shuts down. */
export const WS_RESTART_CODE = 1012;

/** Over how long the sockets of a copy that shut down spread their first reconnect. */
export const WS_RESTART_SPREAD_MS = 10_000;

/**
 * How long a websocket waits before its next reconnect attempt: a random point in the upper half of
 * its back-off (`cooldown`), so clients dropped together do not come back together; after a copy
 * said it is restarting (close code 1012), a random point in the first WS_RESTART_SPREAD_MS, since
 * then every socket of that copy reconnects at once and the other copies take them all. Not below
 * 100 ms.
 */
export function reconnectDelay(cooldown: number, closeCode: number | null, random: () => number = Math.random): number {
  const wait = closeCode === WS_RESTART_CODE ? random() * WS_RESTART_SPREAD_MS : cooldown / 2 + (random() * cooldown) / 2;
  return Math.max(100, Math.round(wait));
}

/** The next websocket reconnect back-off: 1 s, doubling, capped at 16 s. */
export function nextCooldown(current: number): number {
  return Math.min(Math.max(current, TIMINGS.wsBackoffStartMs / 2) * 2, TIMINGS.wsBackoffMaxMs);
}

export interface CountdownTimes {
  countdown_timestamp: number | null;
  registration_open: number | null;
  competition_end: number | null;
}

export type CountdownTarget = { kind: "start" | "end"; at: number; remaining: number } | null;

/**
 * What the countdown shows at `now` (server-adjusted seconds): the start while it is ahead, then
 * the end; nothing when both are past or unset.
 */
export function countdownTarget(times: CountdownTimes, now: number): CountdownTarget {
  const start = times.countdown_timestamp;
  if (start !== null && start > now) return { kind: "start", at: start, remaining: start - now };
  const end = times.competition_end;
  if (end !== null && end > now) return { kind: "end", at: end, remaining: end - now };
  return null;
}

/**
 * The moment to draw the countdown in words at, for the clock's `now` (seconds): its words change
 * every second only in the last hour (seconds are shown then); before that, at most once a minute.
 * So `now` is moved up to the minute's mark toward the target, where the words are the same, and a
 * reader drawing at this moment is drawn again once a minute rather than every second (and not at
 * all once nothing is ahead).
 */
export function countdownShownAt(times: CountdownTimes, now: number): number {
  const target = countdownTarget(times, now);
  // Nothing ahead (no times, or all passed): every moment from the last of them on draws alike.
  if (!target) return Math.max(times.countdown_timestamp ?? 0, times.competition_end ?? 0);
  if (target.remaining < 3600) return now;
  return now + (target.remaining % 60);
}

/** The countdown flags: a flag passes when its time is before the server-adjusted now. */
export function countdownFlags(times: CountdownTimes, now: number) {
  const passed = (t: number | null) => t === null || t <= now;
  return {
    registration_open: passed(times.registration_open),
    countdown_timestamp: passed(times.countdown_timestamp),
    competition_end: times.competition_end !== null && times.competition_end <= now,
  };
}

function split(seconds: number) {
  const s = Math.max(0, Math.floor(seconds));
  return { days: Math.floor(s / 86_400), hours: Math.floor((s % 86_400) / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** days:hh:mm:ss, as the countdown shows it. */
export function formatCountdown(seconds: number): string {
  const t = split(seconds);
  return `${t.days}:${pad(t.hours)}:${pad(t.minutes)}:${pad(t.seconds)}`;
}

export type CountdownUnit = "d" | "h" | "m" | "s";

/**
 * The two largest units a countdown shows: days and hours from a day out, hours and minutes from
 * an hour out, minutes and seconds in the last hour, seconds alone in the last minute. A zero
 * second unit is dropped ("3 h", not "3 h 0 m"); nothing left reads as 0 seconds.
 */
export function countdownParts(seconds: number): { unit: CountdownUnit; value: number }[] {
  const t = split(seconds);
  const all: { unit: CountdownUnit; value: number }[] = [
    { unit: "d", value: t.days },
    { unit: "h", value: t.hours },
    { unit: "m", value: t.minutes },
    { unit: "s", value: t.seconds },
  ];
  const first = all.findIndex((p) => p.value > 0);
  if (first === -1) return [{ unit: "s", value: 0 }];
  const [lead, next] = all.slice(first, first + 2);
  return next && next.value > 0 ? [lead!, next] : [lead!];
}

/**
 * The countdown in words: "2 d 4 h", "8 h 59 m", "12 m 5 s", "42 s". `unit` words each part (the
 * web app passes its translated unit names, short or spelt out); by default "{value} {unit}".
 */
export function formatCountdownWords(seconds: number, unit: (unit: CountdownUnit, value: number) => string = (u, v) => `${v} ${u}`): string {
  return countdownParts(seconds)
    .map((p) => unit(p.unit, p.value))
    .join(" ");
}

/** The lock page's 'Unlock in N days, HH hours, MM minutes, SS seconds'. */
export function formatUnlockIn(seconds: number): string {
  const t = split(seconds);
  return `Unlock in ${t.days} days, ${pad(t.hours)} hours, ${pad(t.minutes)} minutes, ${pad(t.seconds)} seconds`;
}

/** Under 600 s remaining the countdown shows a hint. */
export function countdownHint(remaining: number): boolean {
  return remaining > 0 && remaining < TIMINGS.countdownHintSeconds;
}
