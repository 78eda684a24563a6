import type { Db } from "@flagship/db";
import { describe, expect, it } from "vitest";
import { oneSolveAtATime } from "./solve-queue.ts";

/** A work item that records how many items of its key run at once, and finishes when released. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}

describe("oneSolveAtATime", () => {
  it("runs the solves of one challenge one after another, in arrival order, and other challenges beside them", async () => {
    const db = {} as Db;
    const running = new Map<number, number>();
    const peak = new Map<number, number>();
    const order: string[] = [];
    const gates = [gate(), gate(), gate()];
    const work = (challenge: number, name: string, wait: Promise<void>) => () => {
      running.set(challenge, (running.get(challenge) ?? 0) + 1);
      peak.set(challenge, Math.max(peak.get(challenge) ?? 0, running.get(challenge)!));
      order.push(`start ${name}`);
      return wait.then(() => {
        running.set(challenge, running.get(challenge)! - 1);
        order.push(`end ${name}`);
        return name;
      });
    };
    const first = oneSolveAtATime(db, 1, work(1, "a", gates[0]!.released));
    const second = oneSolveAtATime(db, 1, work(1, "b", gates[1]!.released));
    const other = oneSolveAtATime(db, 2, work(2, "c", gates[2]!.released));
    await Promise.resolve();
    // "c" (another challenge) started beside "a"; "b" waits for "a".
    expect(order).toEqual(["start a", "start c"]);
    gates[1]!.release();
    gates[2]!.release();
    await other;
    expect(order).not.toContain("start b");
    gates[0]!.release();
    expect(await Promise.all([first, second, other])).toEqual(["a", "b", "c"]);
    expect(order.indexOf("start b")).toBeGreaterThan(order.indexOf("end a"));
    expect(peak.get(1)).toBe(1);
  });

  it("goes on with the next solve after one that failed, and passes the failure to its caller", async () => {
    const db = {} as Db;
    const failing = oneSolveAtATime(db, 7, () => Promise.reject(new Error("unique violation")));
    const next = oneSolveAtATime(db, 7, () => Promise.resolve("next"));
    await expect(failing).rejects.toThrow("unique violation");
    await expect(next).resolves.toBe("next");
  });
});
