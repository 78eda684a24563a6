import { describe, expect, it } from "vitest";
import { applyStandings, type BoardEntry, previousBoard } from "./board.ts";

const entry = (id: number, points: number, last: string | null = null): BoardEntry => ({ id, name: `t${id}`, leaderboard_points: points, last_score: last, group_id: null, group_name: null });
const board = () => [entry(1, 300, "2026-01-01T00:00:01.000Z"), entry(2, 200, "2026-01-01T00:00:02.000Z"), entry(3, 100, "2026-01-01T00:00:03.000Z"), entry(4, 0)];

describe("applyStandings", () => {
  it("answers the same board when nothing on it moved", () => {
    const entries = board();
    expect(applyStandings(entries, [])).toBe(entries);
    expect(applyStandings(entries, [{ id: 2, points: 200, last: "2026-01-01T00:00:02.000Z", listed: true }])).toBe(entries);
  });

  it("moves a competitor to their new place, keeps everyone else's entry and remembers the board it came from", () => {
    const entries = board();
    const next = applyStandings(entries, [{ id: 3, points: 250, last: "2026-01-01T00:00:09.000Z", listed: true }]);
    if (next === "reload") throw new Error("expected a patched board");
    expect(next.map((e) => [e.id, e.leaderboard_points])).toEqual([[1, 300], [3, 250], [2, 200], [4, 0]]);
    expect(next[0]).toBe(entries[0]);
    expect(next[2]).toBe(entries[1]);
    expect(entries.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(previousBoard(next)).toBe(entries);
  });

  it("applies several at once (a decay re-scoring), ties going to the earlier last solve", () => {
    const next = applyStandings(board(), [
      { id: 1, points: 150, last: "2026-01-01T00:00:01.000Z", listed: true },
      { id: 2, points: 150, last: "2026-01-01T00:00:02.000Z", listed: true },
      { id: 4, points: 150, last: "2026-01-01T00:00:00.500Z", listed: true },
    ]);
    if (next === "reload") throw new Error("expected a patched board");
    expect(next.map((e) => e.id)).toEqual([4, 1, 2, 3]);
  });

  it("asks for the board to be built again when a listed competitor is missing or a listed one should go", () => {
    expect(applyStandings(board(), [{ id: 9, points: 50, last: null, listed: true }])).toBe("reload");
    expect(applyStandings(board(), [{ id: 2, points: 200, last: null, listed: false }])).toBe("reload");
    const entries = board();
    // Not listed and not on the board (a hidden team's solve): nothing to do.
    expect(applyStandings(entries, [{ id: 9, points: 50, last: null, listed: false }])).toBe(entries);
  });
});
