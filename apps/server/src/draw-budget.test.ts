import { describe, expect, it } from "vitest";
import { DrawBudget, LoopLoad, machineBusyShare, machineCpuTimes } from "./draw-budget.ts";

describe("DrawBudget", () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };
  const drawFor = (time: ReturnType<typeof clock>, ms: number) => async () => {
    time.advance(ms);
  };

  it("lets a draw in only while what a draw takes fits in what is left of the budget, then again as the window slides", async () => {
    const time = clock();
    const budget = new DrawBudget(100, 1_000, time.now);
    // Before any draw has ended, a draw is expected to take 50 ms.
    expect(budget.allows()).toBe(true);
    await budget.track(drawFor(time, 40));
    expect(budget.spent()).toBe(40);
    // 40 spent, a draw now expected to take 48 ms: it fits in the 100.
    expect(budget.allows()).toBe(true);
    await budget.track(drawFor(time, 20));
    // 60 spent: 40 ms of the budget are left, but a draw (about 42 ms now) would not fit.
    expect(budget.spent()).toBe(60);
    expect(budget.allows()).toBe(false);
    // At 1.041 s the window starts at 41 ms: the first draw (0-40 ms) has left it, and of the
    // second (40-60 ms) 19 ms are in it.
    time.advance(1_000 - 60 + 41);
    expect(budget.spent()).toBe(19);
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

  it("is what the copy's calls leave of it: a quarter at 75 % busy, none when less is left than a draw takes, all of it when idle", async () => {
    const time = clock();
    let busy = 0.75;
    const budget = new DrawBudget(250, 1_000, time.now, () => busy);
    expect(budget.currentBudget()).toBeCloseTo(62.5);
    expect(budget.allows()).toBe(true);
    await budget.track(drawFor(time, 30));
    // 30 of the 62.5 spent, and a draw expected to take 46 ms.
    expect(budget.allows()).toBe(false);
    time.advance(1_000);
    expect(budget.spent()).toBe(0);
    // Saturated by calls, or so busy that the few milliseconds left cannot hold a draw: none, however
    // long since the last.
    busy = 1;
    expect(budget.allows()).toBe(false);
    busy = 0.9;
    expect(budget.currentBudget()).toBeCloseTo(25);
    expect(budget.allows()).toBe(false);
    busy = 0.92;
    time.advance(60_000);
    expect(budget.allows()).toBe(false);
    busy = 0;
    expect(budget.allows()).toBe(true);
    expect(budget.currentBudget()).toBe(250);
  });

  it("still lets an idle copy draw after draws slower than its whole budget, one at a time", async () => {
    const time = clock();
    let busy = 0;
    const budget = new DrawBudget(250, 1_000, time.now, () => busy);
    // Two draws of 2 s each (a slow machine compiling the renderer): a draw is now expected to take
    // more than the budget.
    await budget.track(drawFor(time, 2_000));
    await budget.track(drawFor(time, 2_000));
    time.advance(1_000);
    expect(budget.spent()).toBe(0);
    expect(budget.allows()).toBe(true);
    let finish!: () => void;
    const running = budget.track(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(budget.allows()).toBe(false);
    finish();
    await running;
    time.advance(1_000);
    // Half busy, it has 125 ms, and a draw is still expected to take the whole budget...
    busy = 0.5;
    expect(budget.allows()).toBe(false);
    busy = 0;
    expect(budget.allows()).toBe(true);
    // ...until windows pass without a draw: what a draw takes halves with each (250, 125, 62.5).
    busy = 0.5;
    time.advance(1_000);
    expect(budget.allows()).toBe(true);
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

  it("counts what a draw says it cost (the thread's busy time), not the time it waited for its data", async () => {
    const time = clock();
    const budget = new DrawBudget(100, 1_000, time.now);
    // 300 ms from start to end, 20 of them drawing.
    const page = await budget.track(
      async () => {
        time.advance(300);
        return { drawMs: 20 };
      },
      (result) => result.drawMs,
    );
    expect(page).toEqual({ drawMs: 20 });
    expect(budget.spent()).toBe(20);
    expect(budget.allows()).toBe(true);
    // A draw that cannot say counts its time from start to end.
    await budget.track(drawFor(time, 90), () => undefined);
    expect(budget.spent()).toBe(110);
    expect(budget.allows()).toBe(false);
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
    // The machine's processors idle (whatever else this machine runs meanwhile).
    let clock = 0;
    const load = new LoopLoad(100, () => ({ busy: 0, total: (clock += 100) }));
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

describe("LoopLoad on a busy machine", () => {
  it("reads the copy as busy when the machine's processors are, its own loop idle", async () => {
    let clock = 0;
    // Nine tenths of the processors' time busy between readings.
    const load = new LoopLoad(50, () => ({ busy: (clock += 90), total: clock * (100 / 90) }));
    try {
      await new Promise((resolve) => setTimeout(resolve, 180));
      expect(load.current()).toBeCloseTo(0.9);
    } finally {
      load.stop();
    }
  });
});

describe("the machine's share of busy processors", () => {
  it("is the busy time over all the time between two readings, 0 to 1", () => {
    expect(machineBusyShare({ busy: 1_000, total: 4_000 }, { busy: 1_600, total: 5_000 })).toBeCloseTo(0.6);
    expect(machineBusyShare({ busy: 0, total: 0 }, { busy: 0, total: 0 })).toBe(0);
    // Readings never go back, but a share is never past its bounds.
    expect(machineBusyShare({ busy: 10, total: 10 }, { busy: 30, total: 20 })).toBe(1);
  });

  it("reads this machine's processors, busy time within all time", () => {
    const times = machineCpuTimes();
    expect(times.total).toBeGreaterThan(0);
    expect(times.busy).toBeGreaterThan(0);
    expect(times.busy).toBeLessThanOrEqual(times.total);
  });
});
