import { describe, expect, it } from "vitest";
import { countdownFlags, countdownHint, countdownTarget, formatCountdown, formatUnlockIn, nextCooldown, reconnectDelay, WS_RESTART_CODE, WS_RESTART_SPREAD_MS } from "./countdown.ts";

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
