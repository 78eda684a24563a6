import { describe, expect, it } from "vitest";
import { DrawBudget, LoopLoad } from "./draw-budget.ts";

describe("DrawBudget", () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };
  const drawFor = (time: ReturnType<typeof clock>, ms: number) => async () => {
    time.advance(ms);
  };

  it("allows draws until the window holds the budget's worth of drawing, then again as it slides", async () => {
    const time = clock();
    const budget = new DrawBudget(100, 1_000, time.now);
    expect(budget.allows()).toBe(true);
    await budget.track(drawFor(time, 60));
    expect(budget.spent()).toBe(60);
    expect(budget.allows()).toBe(true);
    await budget.track(drawFor(time, 50));
    expect(budget.allows()).toBe(false);
    // At 1.061 s the window starts at 61 ms: the first draw (0-60 ms) has left it, and of the
    // second (60-110 ms) 49 ms are in it.
    time.advance(1_000 - 110 + 61);
    expect(budget.spent()).toBe(49);
    expect(budget.allows()).toBe(true);
  });

  it("counts draws under way by the time they have taken so far, and at least what a draw takes", async () => {
    const time = clock();
    const budget = new DrawBudget(100, 1_000, time.now);
    let finish!: () => void;
    const running = budget.track(() => new Promise<void>((resolve) => (finish = resolve)));
    // Just begun, it counts what a draw is expected to take (50 ms before any has ended).
    expect(budget.spent()).toBe(50);
    time.advance(80);
    expect(budget.spent()).toBe(80);
    time.advance(30);
    expect(budget.allows()).toBe(false);
    finish();
    await running;
    expect(budget.spent()).toBe(110);
  });

  it("is what the copy's calls leave of it: a fifth at 80 % busy, nothing when saturated, all of it when idle", async () => {
    const time = clock();
    let busy = 0.8;
    const budget = new DrawBudget(250, 1_000, time.now, () => busy);
    expect(budget.currentBudget()).toBeCloseTo(50);
    await budget.track(drawFor(time, 40));
    expect(budget.allows()).toBe(true);
    await budget.track(drawFor(time, 20));
    expect(budget.allows()).toBe(false);
    busy = 1;
    time.advance(2_000);
    expect(budget.allows()).toBe(false);
    busy = 0;
    expect(budget.allows()).toBe(true);
    expect(budget.currentBudget()).toBe(250);
  });

  it("lets in only the budget's worth of a burst of requests that arrive together", () => {
    const time = clock();
    const budget = new DrawBudget(250, 1_000, time.now);
    let admitted = 0;
    for (let i = 0; i < 20; i++) {
      if (!budget.allows()) continue;
      admitted++;
      void budget.track(() => new Promise<void>(() => {}));
    }
    expect(admitted).toBe(5);
  });

  it("counts a draw that fails, and passes its failure on", async () => {
    const time = clock();
    const budget = new DrawBudget(100, 1_000, time.now);
    await expect(
      budget.track(async () => {
        time.advance(120);
        throw new Error("render failed");
      }),
    ).rejects.toThrow("render failed");
    expect(budget.allows()).toBe(false);
  });
});

describe("LoopLoad", () => {
  it("reads the event loop as busy while code holds it, and idle once it waits", async () => {
    const load = new LoopLoad(100);
    try {
      const until = performance.now() + 250;
      while (performance.now() < until) {
        // Holding the loop, as a copy answering calls back to back does.
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(load.current()).toBeGreaterThan(0.5);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(load.current()).toBeLessThan(0.5);
    } finally {
      load.stop();
    }
  });
});
