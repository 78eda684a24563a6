import { unlockTree } from "@flagship/shared";
import { describe, expect, it } from "vitest";
import { describeUnlock, type Seen, type UnlockWords } from "./unlock-text.ts";

const words: UnlockWords = {
  list: (parts, kind) => new Intl.ListFormat("en", { type: kind === "all" ? "conjunction" : "disjunction" }).format(parts),
  unnamed: (which, count, kind) => (count === 1 ? `a ${which} challenge` : kind === "any" ? `any of ${count} ${which} challenges` : `${count} ${which} challenges`),
};

const known: Record<number, Seen> = { 1: { kind: "named", name: "Warm Up" }, 2: { kind: "named", name: "Crypto 1" }, 3: { kind: "locked" }, 4: { kind: "locked" } };
const seen = (id: number): Seen => known[id] ?? { kind: "hidden" };
const say = (expression: string) => describeUnlock(unlockTree(expression)!, seen, words);

describe("unlock requirements in words", () => {
  it("names the challenges the player can see", () => {
    expect(say("1")).toBe("“Warm Up”");
    expect(say("1 2 AND")).toBe("“Warm Up” and “Crypto 1”");
    expect(say("1 2 OR")).toBe("“Warm Up” or “Crypto 1”");
  });

  it("never names a hidden or locked challenge, counting them instead", () => {
    expect(say("9")).toBe("a hidden challenge");
    expect(say("3")).toBe("a locked challenge");
    expect(say("1 9 AND 8 AND 3 AND")).toBe("“Warm Up”, a locked challenge, and 2 hidden challenges");
    expect(say("9 8 OR")).toBe("any of 2 hidden challenges");
    expect(say("3 4 AND")).toBe("2 locked challenges");
  });

  it("puts mixed groups in parentheses", () => {
    expect(say("1 2 OR 9 AND")).toBe("(“Warm Up” or “Crypto 1”) and a hidden challenge");
    expect(say("1 2 9 AND OR")).toBe("“Warm Up” or (“Crypto 1” and a hidden challenge)");
  });
});
