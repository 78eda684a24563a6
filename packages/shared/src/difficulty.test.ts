import { describe, expect, it } from "vitest";
import { challengeDifficulty, DIFFICULTIES, isDifficulty } from "./difficulty.ts";

describe("challengeDifficulty", () => {
  it("answers the difficulty staff set, whatever the points", () => {
    expect(challengeDifficulty("hard", 50)).toBe("Hard");
    expect(challengeDifficulty("easy", 1000)).toBe("Easy");
    expect(challengeDifficulty("insane", 0)).toBe("Insane");
  });

  it("falls back on the points when none is set", () => {
    expect(challengeDifficulty(undefined, 400)).toBe("Medium");
    expect(challengeDifficulty(undefined, 1000)).toBe("Insane");
    expect(challengeDifficulty(undefined, 10)).toBeNull();
  });

  it("treats an unknown stored word as unset", () => {
    expect(challengeDifficulty("Hard", 100)).toBe("Easy");
    expect(challengeDifficulty(3, 500)).toBe("Hard");
    expect(challengeDifficulty("", 20)).toBeNull();
  });

  it("knows its own words only", () => {
    for (const difficulty of DIFFICULTIES) expect(isDifficulty(difficulty)).toBe(true);
    expect(isDifficulty("trivial")).toBe(false);
    expect(isDifficulty(null)).toBe(false);
  });
});
