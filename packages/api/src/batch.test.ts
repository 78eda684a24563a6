import { describe, expect, it } from "vitest";
import { KeyedBatcher } from "./batch.ts";

/** A loader whose statements finish when the test says, recording the keys of each. */
function gated() {
  const statements: number[][] = [];
  const gates: (() => void)[] = [];
  const load = (keys: number[]) => {
    statements.push(keys);
    return new Promise<Map<number, number>>((resolve) => gates.push(() => resolve(new Map(keys.filter((k) => k !== 404).map((k) => [k, k * 10])))));
  };
  return { statements, gates, load };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("keyed batches", () => {
  it("sends the first lookups at once and those arriving meanwhile together, sharing a key's answer", async () => {
    const { statements, gates, load } = gated();
    const batcher = new KeyedBatcher(load, 0, 2);
    const first = batcher.get(1);
    const second = batcher.get(2);
    expect(statements).toEqual([[1], [2]]);
    // Both statements are running: these wait, then go out as one.
    const waiting = [batcher.get(3), batcher.get(4), batcher.get(3), batcher.get(404)];
    expect(statements).toHaveLength(2);
    gates[0]!();
    await tick();
    expect(statements).toEqual([[1], [2], [3, 4, 404]]);
    gates[1]!();
    gates[2]!();
    expect(await Promise.all([first, second, ...waiting])).toEqual([10, 20, 30, 40, 30, 0]);
  });

  it("never answers a lookup from a statement sent before it was asked", async () => {
    const { statements, gates, load } = gated();
    const batcher = new KeyedBatcher(load, 0, 1);
    const early = batcher.get(7);
    const late = batcher.get(7);
    // The late lookup of the same key waits for a statement of its own.
    expect(statements).toEqual([[7]]);
    gates[0]!();
    expect(await early).toBe(70);
    await tick();
    expect(statements).toEqual([[7], [7]]);
    gates[1]!();
    expect(await late).toBe(70);
  });

  it("hands a failed statement's error to each of its lookups and goes on with the next", async () => {
    let calls = 0;
    const batcher = new KeyedBatcher(async (keys: number[]) => {
      calls += 1;
      if (calls === 1) throw new Error("connection lost");
      return new Map(keys.map((k) => [k, k]));
    }, 0, 1);
    const failed = batcher.get(1);
    const next = batcher.get(2);
    await expect(failed).rejects.toThrow("connection lost");
    expect(await next).toBe(2);
  });

  it("splits a crowd into statements of at most maxKeys keys", async () => {
    const sizes: number[] = [];
    const batcher = new KeyedBatcher(async (keys: number[]) => {
      sizes.push(keys.length);
      return new Map(keys.map((k) => [k, k]));
    }, 0, 1, 3);
    await Promise.all(Array.from({ length: 8 }, (_, i) => batcher.get(i)));
    expect(sizes).toEqual([1, 3, 3, 1]);
  });
});
