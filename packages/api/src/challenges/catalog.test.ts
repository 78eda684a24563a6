import { describe, expect, it } from "vitest";
import { applySolvePatch, type Catalog, type CatalogChallenge, type CatalogCategory } from "./catalog.ts";

function challenge(id: number, categoryId: number): CatalogChallenge {
  return {
    id,
    categoryId,
    slug: `c${id}`,
    name: `C${id}`,
    description: "",
    challengeType: "default",
    challengeMetadata: {},
    flagType: "plaintext",
    flagMetadata: {},
    author: "",
    score: 500,
    currentScore: 500,
    pointsType: "decay",
    unlockRequirements: "",
    hidden: false,
    maintenance: false,
    tiebreaker: true,
    postScoreExplanation: "",
    attemptLimit: null,
    source: "",
    scheduledAt: null,
    withheld: false,
    nextChallengeId: null,
    solveCount: 0,
    votesPositive: 0,
    votesNegative: 0,
    firstBlood: null,
    tags: [],
    hints: [],
    files: [],
  };
}

function catalog(): Catalog {
  const web: CatalogCategory = { id: 1, slug: "web", name: "Web", displayOrder: 0, containedType: "jeopardy", description: "", metadata: {}, challenges: [challenge(10, 1), challenge(11, 1)] };
  const pwn: CatalogCategory = { id: 2, slug: "pwn", name: "Pwn", displayOrder: 1, containedType: "jeopardy", description: "", metadata: {}, challenges: [challenge(20, 2)] };
  const all = [...web.challenges, ...pwn.challenges];
  return { categories: [web, pwn], challenges: new Map(all.map((c) => [c.id, c])), hints: new Map(), nextRelease: null };
}

describe("a solve applied to the catalog", () => {
  it("replaces only the solved challenge and its category, keeping every other object", () => {
    const before = catalog();
    const after = applySolvePatch(before, { id: 10, solveCount: 1, currentScore: 500, firstBlood: "Owls" });
    expect(after.challenges.get(10)).toMatchObject({ solveCount: 1, currentScore: 500, firstBlood: "Owls" });
    expect(after.categories[0]!.challenges[0]).toBe(after.challenges.get(10));
    expect(after.categories[0]).not.toBe(before.categories[0]);
    expect(after.categories[0]!.challenges[1]).toBe(before.challenges.get(11));
    expect(after.categories[1]).toBe(before.categories[1]);
    expect(after.challenges.get(20)).toBe(before.challenges.get(20));
    // The catalog it came from is left as it was: requests holding it see one consistent state.
    expect(before.challenges.get(10)).toMatchObject({ solveCount: 0, firstBlood: null });
  });

  it("settles on the latest solve whatever order the patches arrive in, and keeps first blood", () => {
    const second = { id: 10, solveCount: 2, currentScore: 300, firstBlood: null };
    const first = { id: 10, solveCount: 1, currentScore: 500, firstBlood: "Owls" };
    const inOrder = applySolvePatch(applySolvePatch(catalog(), first), second);
    const reversed = applySolvePatch(applySolvePatch(catalog(), second), first);
    for (const result of [inOrder, reversed]) expect(result.challenges.get(10)).toMatchObject({ solveCount: 2, currentScore: 300, firstBlood: "Owls" });
    // Applying a patch again changes nothing, not even the object.
    expect(applySolvePatch(inOrder, second)).toBe(inOrder);
    expect(applySolvePatch(inOrder, first)).toBe(inOrder);
  });

  it("ignores a challenge it does not know", () => {
    const before = catalog();
    expect(applySolvePatch(before, { id: 99, solveCount: 1, currentScore: 1, firstBlood: "Owls" })).toBe(before);
  });
});
