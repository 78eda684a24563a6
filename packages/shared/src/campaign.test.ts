import { describe, expect, it } from "vitest";
import { placeTiles, type TileInput, tileLinks } from "./campaign.ts";

const tile = (id: number, score: number | null, extra: Partial<TileInput> = {}): TileInput => ({ id, score, unlockRequirements: "", solved: false, ...extra });

describe("campaign tiles", () => {
  it("auto-places across 7 columns sorted by score ascending", () => {
    const tiles = [tile(1, 300), tile(2, 100), tile(3, 200), ...Array.from({ length: 6 }, (_, i) => tile(10 + i, 500 + i))];
    const placed = placeTiles(tiles);
    const pos = (id: number) => placed.find((p) => p.id === id);
    expect(pos(2)).toEqual({ id: 2, x: 0, y: 0 });
    expect(pos(3)).toEqual({ id: 3, x: 1, y: 0 });
    expect(pos(1)).toEqual({ id: 1, x: 2, y: 0 });
    expect(pos(15)).toEqual({ id: 15, x: 1, y: 1 });
  });

  it("keeps metadata positions, skips taken cells, and puts tiles without a score last", () => {
    const placed = placeTiles([tile(1, 100, { x: 0, y: 0 }), tile(2, 50), tile(3, null), tile(4, 10, { x: 9, y: 0 }), tile(5, 20, { x: 0, y: 0 })]);
    expect(placed).toEqual([
      { id: 1, x: 0, y: 0 },
      { id: 4, x: 1, y: 0 },
      { id: 5, x: 2, y: 0 },
      { id: 2, x: 3, y: 0 },
      { id: 3, x: 4, y: 0 },
    ]);
    expect(placeTiles([tile(1, 1), tile(2, 2)], 1)).toEqual([
      { id: 1, x: 0, y: 0 },
      { id: 2, x: 0, y: 1 },
    ]);
  });

  it("links neighbours by their requirements; unlocked when exactly one is solved", () => {
    const tiles = [tile(1, 100, { solved: true }), tile(2, 200, { unlockRequirements: "1" }), tile(3, 300, { unlockRequirements: "2" }), tile(4, 400, { unlockRequirements: "1", x: 0, y: 1 })];
    const placed = placeTiles(tiles);
    expect(tileLinks(tiles, placed)).toEqual([
      { from: 1, to: 2, direction: "right", state: "unlocked" },
      { from: 2, to: 3, direction: "right", state: "locked" },
      { from: 1, to: 4, direction: "down", state: "unlocked" },
    ]);
    tiles[1]!.solved = true;
    expect(tileLinks(tiles, placed)[0]!.state).toBe("solved");
  });
});
