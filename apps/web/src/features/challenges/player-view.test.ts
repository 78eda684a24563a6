import { describe, expect, it } from "vitest";
import { asPlayerSees, categoryProgress } from "./player-view.ts";
import type { CategoryView, ChallengeView } from "./types.ts";

function challenge(id: number, patch: Partial<ChallengeView> = {}): ChallengeView {
  return {
    id,
    category: 1,
    slug: `c${id}`,
    name: `Challenge ${id}`,
    description: "secret",
    challenge_type: "default",
    challenge_metadata: { cserv_name: "job", x: 1 },
    flag_type: "plaintext",
    points_type: "basic",
    author: "",
    score: 100,
    current_score: 100 * id,
    unlock_requirements: "",
    hints: [],
    files: [],
    solved: false,
    unlocked: true,
    first_blood: null,
    solve_count: 2,
    hidden: false,
    maintenance: false,
    votes: { positive: 0, negative: 0, self: null },
    tags: [],
    tiebreaker: false,
    next_challenge: null,
    post_score_explanation: "",
    flag_metadata: { flag: "flag{x}" },
    attempt_limit: null,
    ...patch,
  };
}

function category(challenges: ChallengeView[]): CategoryView {
  return { id: 1, slug: "web", name: "Web", display_order: 0, contained_type: "jeopardy", description: "", metadata: {}, challenges };
}

describe("the listing as a player sees it", () => {
  it("leaves out hidden challenges and reduces locked ones to stubs", () => {
    const [seen] = asPlayerSees([category([challenge(1), challenge(2, { hidden: true }), challenge(3, { unlocked: false, unlock_requirements: "1" })])]);
    expect(seen!.challenges.map((c) => c.id)).toEqual([1, 3]);
    expect(seen!.challenges[1]).toEqual({ id: 3, category: 1, unlock_requirements: "1", challenge_type: "default", challenge_metadata: { x: 1 }, solve_count: 2, votes: { positive: 0, negative: 0, self: null }, unlocked: false });
  });

  it("drops the staff's flag and attempt limit from what stays open", () => {
    const [seen] = asPlayerSees([category([challenge(1)])]);
    expect(seen!.challenges[0]).not.toHaveProperty("flag_metadata");
    expect(seen!.challenges[0]).not.toHaveProperty("attempt_limit");
  });

  it("keeps a solved challenge open even when its requirements are not met", () => {
    const [seen] = asPlayerSees([category([challenge(1, { unlocked: false, solved: true })])]);
    expect(seen!.challenges[0]).toHaveProperty("name", "Challenge 1");
  });
});

describe("a category's progress", () => {
  it("counts solves and points earned of those offered, locked stubs counted but unpriced", () => {
    const [withStub] = asPlayerSees([category([challenge(1, { solved: true }), challenge(2), challenge(3, { unlocked: false })])]);
    expect(categoryProgress(withStub!)).toEqual({ solved: 1, total: 3, earned: 100, available: 300 });
  });
});
