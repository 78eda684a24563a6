import { describe, expect, it } from "vitest";
import { unlockExpression, unlockPicks } from "./unlock-picks.ts";
import { isUnlocked } from "./unlocks.ts";

describe("unlockPicks", () => {
  it("reads the empty expression as no picks", () => {
    expect(unlockPicks("")).toEqual({ ids: [], operator: "AND" });
    expect(unlockPicks("   ")).toEqual({ ids: [], operator: "AND" });
    expect(unlockPicks(null)).toEqual({ ids: [], operator: "AND" });
  });

  it("reads one challenge", () => {
    expect(unlockPicks("12")).toEqual({ ids: [12], operator: "AND" });
  });

  it("reads a chain with one operator, however it is bracketed", () => {
    expect(unlockPicks("12 15 AND")).toEqual({ ids: [12, 15], operator: "AND" });
    expect(unlockPicks("12 15 OR 20 OR")).toEqual({ ids: [12, 15, 20], operator: "OR" });
    expect(unlockPicks("12 15 20 AND AND")).toEqual({ ids: [12, 15, 20], operator: "AND" });
  });

  it("lists a challenge named twice once", () => {
    expect(unlockPicks("12 12 AND")).toEqual({ ids: [12], operator: "AND" });
  });

  it("gives up on mixed operators and on invalid expressions", () => {
    expect(unlockPicks("12 15 AND 20 OR")).toBeNull();
    expect(unlockPicks("12 AND")).toBeNull();
    expect(unlockPicks("banana")).toBeNull();
  });
});

describe("unlockExpression", () => {
  it("writes no picks as the empty expression and one as its id", () => {
    expect(unlockExpression({ ids: [], operator: "OR" })).toBe("");
    expect(unlockExpression({ ids: [7], operator: "OR" })).toBe("7");
  });

  it("writes a left-to-right chain the server's parser accepts", () => {
    expect(unlockExpression({ ids: [12, 15], operator: "AND" })).toBe("12 15 AND");
    expect(unlockExpression({ ids: [12, 15, 20], operator: "OR" })).toBe("12 15 OR 20 OR");
    expect(unlockExpression({ ids: [3, 3, 4], operator: "AND" })).toBe("3 4 AND");
  });

  it("round-trips through unlockPicks and means what was picked", () => {
    for (const picks of [
      { ids: [1, 2, 3], operator: "AND" as const },
      { ids: [4, 5], operator: "OR" as const },
    ]) {
      const expression = unlockExpression(picks);
      expect(unlockPicks(expression)).toEqual(picks);
      expect(isUnlocked(expression, new Set(picks.ids))).toBe(true);
      expect(isUnlocked(expression, new Set([picks.ids[0]!]))).toBe(picks.operator === "OR");
      expect(isUnlocked(expression, new Set())).toBe(false);
    }
  });
});
