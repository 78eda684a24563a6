import type { Db } from "@flagship/db";
import { describe, expect, it } from "vitest";
import { MAX_BATCH, solveInBatch } from "./solve-queue.ts";

interface Entry {
  team: number;
  challenge?: number;
  name: string;
}

/** A batch runner that records each batch it is given and finishes one when released. */
function recorder() {
  const batches: string[][] = [];
  const releases: (() => void)[] = [];
  let failNext: Error | null = null;
  const run = (entries: Entry[]) => {
    batches.push(entries.map((e) => e.name));
    if (failNext) {
      const error = failNext;
      failNext = null;
      return Promise.reject(error);
    }
    return new Promise<string[]>((resolve) => releases.push(() => resolve(entries.map((e) => `solved ${e.name}`))));
  };
  return { batches, releases, run, failOnce: (error: Error) => (failNext = error) };
}

const team = (e: Entry) => `${e.team}:${e.challenge ?? 1}`;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("solveInBatch", () => {
  it("records a lone solve at once, and every solve that arrived meanwhile, of any challenge, in the next batch, in arrival order", async () => {
    const db = {} as Db;
    const r = recorder();
    const first = solveInBatch(db, { team: 1, name: "a" }, team, r.run);
    const later = [2, 3, 4].map((t) => solveInBatch(db, { team: t, name: `t${t}` }, team, r.run));
    const other = solveInBatch(db, { team: 9, challenge: 2, name: "other" }, team, r.run);
    await tick();
    // "a" started alone; the rest wait for it to commit.
    expect(r.batches).toEqual([["a"]]);
    r.releases[0]!();
    await expect(first).resolves.toBe("solved a");
    await tick();
    expect(r.batches[1]).toEqual(["t2", "t3", "t4", "other"]);
    r.releases[1]!();
    expect(await Promise.all([...later, other])).toEqual(["solved t2", "solved t3", "solved t4", "solved other"]);
    // Another database (another server in the same process) has a lane of its own.
    const elsewhere = solveInBatch({} as Db, { team: 1, name: "elsewhere" }, team, r.run);
    await tick();
    expect(r.batches.at(-1)).toEqual(["elsewhere"]);
    r.releases.at(-1)!();
    await expect(elsewhere).resolves.toBe("solved elsewhere");
  });

  it("puts a team's second flag for a challenge in the batch after its first, and no more than MAX_BATCH in one", async () => {
    const db = {} as Db;
    const r = recorder();
    const blocker = solveInBatch(db, { team: 0, name: "blocker" }, team, r.run);
    const waiting = [
      ...Array.from({ length: MAX_BATCH + 1 }, (_, i) => solveInBatch(db, { team: i + 1, name: `t${i + 1}` }, team, r.run)),
      solveInBatch(db, { team: 1, name: "t1 again" }, team, r.run),
      solveInBatch(db, { team: 1, challenge: 2, name: "t1 elsewhere" }, team, r.run),
    ];
    await tick();
    r.releases[0]!();
    await blocker;
    await tick();
    expect(r.batches[1]).toHaveLength(MAX_BATCH);
    expect(r.batches[1]).not.toContain("t1 again");
    r.releases[1]!();
    await tick();
    expect(r.batches[2]).toEqual([`t${MAX_BATCH + 1}`, "t1 again", "t1 elsewhere"]);
    r.releases[2]!();
    await Promise.all(waiting);
  });

  it("records a failed batch's solves one at a time, so one failure fails one answer, and goes on after it", async () => {
    const db = {} as Db;
    const r = recorder();
    const blocker = solveInBatch(db, { team: 0, name: "blocker" }, team, r.run);
    const x = solveInBatch(db, { team: 1, name: "x" }, team, r.run);
    const y = solveInBatch(db, { team: 2, name: "y" }, team, r.run);
    await tick();
    r.failOnce(new Error("unique violation"));
    r.releases[0]!();
    await blocker;
    await tick();
    // The batch [x, y] failed; x alone was tried next.
    expect(r.batches.slice(1)).toEqual([["x", "y"], ["x"]]);
    r.releases[1]!();
    await expect(x).resolves.toBe("solved x");
    await tick();
    expect(r.batches.at(-1)).toEqual(["y"]);
    r.releases[2]!();
    await expect(y).resolves.toBe("solved y");
    // A lone solve's failure is its caller's; the lane goes on after it.
    r.failOnce(new Error("alone"));
    await expect(solveInBatch(db, { team: 5, name: "z" }, team, r.run)).rejects.toThrow("alone");
    const after = solveInBatch(db, { team: 6, name: "after" }, team, r.run);
    await tick();
    r.releases.at(-1)!();
    await expect(after).resolves.toBe("solved after");
  });
});
