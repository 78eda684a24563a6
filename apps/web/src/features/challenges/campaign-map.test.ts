import { describe, expect, it } from "vitest";
import { campaignProgress, fitMap, FOCUS_ROOM, MAX_TILE, MIN_TILE, mapBounds, nextChallenge, TILE_GAP } from "./campaign-map.ts";
import type { AnyChallengeView, ChallengeView } from "./types.ts";

function challenge(id: number, fields: Partial<ChallengeView> = {}): ChallengeView {
  return {
    id,
    category: 1,
    slug: `c${id}`,
    name: `C${id}`,
    description: "",
    challenge_type: "default",
    challenge_metadata: {},
    flag_type: "plaintext",
    points_type: "basic",
    author: "",
    score: 100,
    current_score: 100,
    unlock_requirements: "",
    hints: [],
    files: [],
    solved: false,
    unlocked: true,
    first_blood: null,
    solve_count: 0,
    hidden: false,
    maintenance: false,
    votes: { positive: 0, negative: 0, self: null },
    tags: [],
    tiebreaker: true,
    next_challenge: null,
    post_score_explanation: "",
    ...fields,
  };
}
const locked = (id: number): AnyChallengeView => ({ id, category: 1, unlock_requirements: "1", challenge_type: "default", challenge_metadata: {}, solve_count: 0, votes: { positive: 0, negative: 0, self: null }, unlocked: false });

describe("mapBounds", () => {
  it("crops the map to the cells its tiles use", () => {
    expect(mapBounds([{ id: 1, x: 2, y: 1 }, { id: 2, x: 4, y: 3 }])).toEqual({ minX: 2, minY: 1, columns: 3, rows: 3 });
    expect(mapBounds([])).toEqual({ minX: 0, minY: 0, columns: 1, rows: 1 });
  });
});

describe("fitMap", () => {
  it("spreads a few tiles over a wide box, up to the largest tile", () => {
    const fit = fitMap(1000, 5);
    expect(fit.tile).toBe(MAX_TILE);
    expect(fit.width).toBe(5 * MAX_TILE + 4 * TILE_GAP + 2 * FOCUS_ROOM);
    expect(fit.fits).toBe(true);
    expect(fitMap(1000, 7)).toEqual({ tile: 125, width: 7 * 125 + 6 * TILE_GAP + 2 * FOCUS_ROOM, fits: true });
  });
  it("keeps the smallest tile and says so when the box is too narrow (a phone)", () => {
    const fit = fitMap(358, 5);
    expect(fit.tile).toBe(MIN_TILE);
    expect(fit.fits).toBe(false);
    expect(fit.width).toBeGreaterThan(358);
    expect(fitMap(358, 3).fits).toBe(true);
  });
});

describe("campaignProgress and nextChallenge", () => {
  const challenges = [challenge(1, { solved: true, current_score: 50 }), challenge(2, { current_score: 300 }), challenge(3, { current_score: 200, maintenance: true }), challenge(4, { current_score: 200 }), challenge(5, { hidden: true, current_score: 10 }), locked(6)];
  const placed = [1, 2, 3, 4, 5, 6].map((id) => ({ id, x: id - 1, y: 0 }));

  it("counts solved challenges of all, and points earned of those shown", () => {
    expect(campaignProgress(challenges)).toEqual({ solved: 1, total: 6, earned: 50, available: 760, locked: 1 });
  });
  it("suggests the cheapest open, unsolved, visible challenge, one under maintenance last", () => {
    expect(nextChallenge(challenges, placed)?.id).toBe(4);
    expect(nextChallenge([challenges[0]!, challenges[2]!], placed)?.id).toBe(3);
    expect(nextChallenge([challenges[0]!, locked(6)], placed)).toBeNull();
  });
  it("breaks a tie in points by the order on the map", () => {
    expect(nextChallenge([challenge(7), challenge(8)], [{ id: 7, x: 0, y: 1 }, { id: 8, x: 3, y: 0 }])?.id).toBe(8);
  });
});
