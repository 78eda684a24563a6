import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { coalesce } from "./coalesce.ts";

describe("coalesce", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs the first call at once and folds a burst into one run at the interval's end", () => {
    const run = vi.fn();
    const refresh = coalesce(run, 1000);
    refresh();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 500; i++) {
      vi.advanceTimersByTime(1);
      refresh();
    }
    // 500 calls over half a second: still the one run, and one more waiting for the interval's end.
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(499);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("runs at once again after a quiet interval, and not at all once cancelled", () => {
    const run = vi.fn();
    const refresh = coalesce(run, 1000);
    refresh();
    vi.advanceTimersByTime(1500);
    refresh();
    expect(run).toHaveBeenCalledTimes(2);
    refresh();
    refresh.cancel();
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
