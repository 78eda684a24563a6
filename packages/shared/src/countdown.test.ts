import { describe, expect, it } from "vitest";
import { countdownFlags, countdownHint, countdownShownAt, countdownParts, countdownTarget, formatCountdown, formatCountdownWords, formatUnlockIn, nextCooldown, reconnectDelay, WS_RESTART_CODE, WS_RESTART_SPREAD_MS } from "./countdown.ts";

describe("nextCooldown", () => {
  it("doubles from 1 s and caps at 16 s", () => {
    const steps = [1000];
    for (let i = 0; i < 6; i += 1) steps.push(nextCooldown(steps.at(-1)!));
    expect(steps).toEqual([1000, 2000, 4000, 8000, 16000, 16000, 16000]);
  });
});

describe("countdownTarget", () => {
  const times = { countdown_timestamp: 1000, registration_open: null, competition_end: 5000 };
  it("targets the start, then the end, then nothing", () => {
    expect(countdownTarget(times, 400)).toEqual({ kind: "start", at: 1000, remaining: 600 });
    expect(countdownTarget(times, 1000)).toEqual({ kind: "end", at: 5000, remaining: 4000 });
    expect(countdownTarget(times, 5000)).toBeNull();
    expect(countdownTarget({ countdown_timestamp: null, registration_open: null, competition_end: null }, 1)).toBeNull();
  });
});

describe("countdownFlags", () => {
  it("passes a flag whose time is before now, and unset start and registration", () => {
    expect(countdownFlags({ countdown_timestamp: 100, registration_open: null, competition_end: 200 }, 150)).toEqual({
      registration_open: true,
      countdown_timestamp: true,
      competition_end: false,
    });
    expect(countdownFlags({ countdown_timestamp: 100, registration_open: 120, competition_end: 200 }, 99).countdown_timestamp).toBe(false);
  });
});

describe("formatting", () => {
  it("shows days:hh:mm:ss", () => {
    expect(formatCountdown(90_061)).toBe("1:01:01:01");
    expect(formatCountdown(59)).toBe("0:00:00:59");
    expect(formatCountdown(-5)).toBe("0:00:00:00");
  });
  it("words the lock page's unlock time", () => {
    expect(formatUnlockIn(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toBe("Unlock in 2 days, 03 hours, 04 minutes, 05 seconds");
  });
  it("hints under 600 s", () => {
    expect(countdownHint(599)).toBe(true);
    expect(countdownHint(600)).toBe(false);
    expect(countdownHint(0)).toBe(false);
  });
});

describe("countdown in words", () => {
  const H = 3600;
  const D = 86_400;
  it.each([
    [8 * H + 59 * 60 + 37, "8 h 59 m"],
    [2 * D + 4 * H + 30 * 60, "2 d 4 h"],
    [D, "1 d"],
    [3 * D + 59 * 60, "3 d"],
    [3 * H, "3 h"],
    [H - 1, "59 m 59 s"],
    [12 * 60 + 5, "12 m 5 s"],
    [10 * 60, "10 m"],
    [42, "42 s"],
    [0.4, "0 s"],
    [-5, "0 s"],
  ])("%d s reads %s", (seconds, text) => expect(formatCountdownWords(seconds)).toBe(text));

  it("never shows more than two units, nor a zero unit", () => {
    for (const seconds of [1, 59, 60, 61, 3599, 3600, 3601, 86_399, 86_400, 90_061, 10 * 86_400 + 1]) {
      const parts = countdownParts(seconds);
      expect(parts.length).toBeGreaterThanOrEqual(1);
      expect(parts.length).toBeLessThanOrEqual(2);
      expect(parts.every((p) => p.value > 0)).toBe(true);
    }
  });

  it("words each part with the unit names it is given", () => {
    const long = (unit: string, n: number) => `${n} ${{ d: "day", h: "hour", m: "minute", s: "second" }[unit]}${n === 1 ? "" : "s"}`;
    expect(formatCountdownWords(D + 2 * H, long)).toBe("1 day 2 hours");
    expect(formatCountdownWords(61, long)).toBe("1 minute 1 second");
  });
});

describe("countdownShownAt", () => {
  const times = { registration_open: null, countdown_timestamp: 100_000, competition_end: 400_000 };
  const words = (now: number) => {
    const target = countdownTarget(times, now);
    return target ? `${target.kind} ${formatCountdownWords(target.remaining)} ${countdownHint(target.remaining)}` : "none";
  };

  it("draws the same words as now, to the start, the end and after it", () => {
    for (let now = 0; now <= 410_000; now += 13) expect(words(countdownShownAt(times, now)), `at ${now}`).toBe(words(now));
  });

  it("is one moment per minute more than an hour out, every second in the last hour", () => {
    const far = new Set<number>();
    // A minute of the countdown: 24 h 59 m, from 89,999 s before the start to 89,940 s.
    for (let now = 10_001; now <= 10_060; now++) far.add(countdownShownAt(times, now));
    expect(far.size).toBe(1);
    const near = new Set<number>();
    for (let now = 97_000; now < 97_060; now++) near.add(countdownShownAt(times, now));
    expect(near.size).toBe(60);
  });

  it("is one moment once nothing is ahead: after the end, or with no times set", () => {
    expect(new Set([400_000, 400_001, 500_000].map((now) => countdownShownAt(times, now)))).toEqual(new Set([400_000]));
    const none = { registration_open: null, countdown_timestamp: null, competition_end: null };
    expect(new Set([0, 1, 1_700_000_000].map((now) => countdownShownAt(none, now))).size).toBe(1);
    expect(countdownTarget(none, countdownShownAt(none, 5))).toBeNull();
  });
});

describe("reconnectDelay", () => {
  it("waits a random point in the upper half of the back-off, so sockets dropped together do not return together", () => {
    expect(reconnectDelay(1000, 1006, () => 0)).toBe(500);
    expect(reconnectDelay(1000, 1006, () => 0.999)).toBe(1000);
    expect(reconnectDelay(16_000, null, () => 0.5)).toBe(12_000);
  });

  it("spreads the first reconnect after a copy's restart (1012) over WS_RESTART_SPREAD_MS, never under 100 ms", () => {
    expect(reconnectDelay(1000, WS_RESTART_CODE, () => 0)).toBe(100);
    expect(reconnectDelay(1000, WS_RESTART_CODE, () => 0.5)).toBe(WS_RESTART_SPREAD_MS / 2);
    expect(reconnectDelay(1000, WS_RESTART_CODE, () => 0.999)).toBe(Math.round(WS_RESTART_SPREAD_MS * 0.999));
  });

  it("spreads 20,000 sockets evenly: no 100 ms of the window gets more than twice its share", () => {
    const buckets = new Array(WS_RESTART_SPREAD_MS / 100).fill(0) as number[];
    for (let i = 0; i < 20_000; i++) buckets[Math.min(buckets.length - 1, Math.floor(reconnectDelay(1000, WS_RESTART_CODE) / 100))]! += 1;
    const share = 20_000 / buckets.length;
    // The 100 ms floor moves the first 100 ms' share into the next: those two are counted together.
    expect(buckets[0]).toBe(0);
    expect(buckets[1]).toBeLessThan(2 * 2 * share);
    expect(Math.max(...buckets.slice(2))).toBeLessThan(2 * share);
  });
});
