import { unlockChallengeIds } from "./unlocks.ts";

/** Campaign tile grid width: tiles auto-place across this many columns. */
export const CAMPAIGN_COLUMNS = 7;

/** Placement of the campaign layout's tiles, and the links drawn between neighbours. */

export interface TileInput {
  id: number;
  /** challenge_metadata.x and .y: a fixed position when both are whole numbers in the grid. */
  x?: unknown;
  y?: unknown;
  /** Null for a locked tile whose score is not shown. */
  score: number | null;
  unlockRequirements: string;
  solved: boolean;
}

export interface PlacedTile {
  id: number;
  x: number;
  y: number;
}

const cell = (x: number, y: number) => `${x},${y}`;
const isCoordinate = (value: unknown, max: number): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0 && value < max;

/**
 * Tiles with a free, valid (x, y) keep it; the rest fill the free cells row by row across the
 * columns, sorted by score ascending (tiles without a score last, then by id).
 */
export function placeTiles(tiles: readonly TileInput[], columns: number = CAMPAIGN_COLUMNS): PlacedTile[] {
  const width = Math.max(1, columns);
  const taken = new Set<string>();
  const placed: PlacedTile[] = [];
  const rest: TileInput[] = [];
  for (const tile of tiles) {
    if (isCoordinate(tile.x, width) && isCoordinate(tile.y, Number.MAX_SAFE_INTEGER) && !taken.has(cell(tile.x, tile.y))) {
      taken.add(cell(tile.x, tile.y));
      placed.push({ id: tile.id, x: tile.x, y: tile.y });
    } else {
      rest.push(tile);
    }
  }
  rest.sort((a, b) => (a.score ?? Number.POSITIVE_INFINITY) - (b.score ?? Number.POSITIVE_INFINITY) || a.id - b.id);
  let index = 0;
  for (const tile of rest) {
    while (taken.has(cell(index % width, Math.floor(index / width)))) index += 1;
    const x = index % width;
    const y = Math.floor(index / width);
    taken.add(cell(x, y));
    placed.push({ id: tile.id, x, y });
  }
  return placed;
}

export type LinkState = "solved" | "unlocked" | "locked";

export interface TileLink {
  from: number;
  to: number;
  /** From the left or upper tile: a link is drawn in the gap to its right or below. */
  direction: "right" | "down";
  state: LinkState;
}

/**
 * Links between neighbouring tiles where one requires the other. A link is unlocked when exactly
 * one of its two tiles is solved, solved when both are, else locked.
 */
export function tileLinks(tiles: readonly TileInput[], placed: readonly PlacedTile[]): TileLink[] {
  const at = new Map(placed.map((p) => [p.id, p]));
  const byId = new Map(tiles.map((t) => [t.id, t]));
  const seen = new Set<string>();
  const links: TileLink[] = [];
  for (const tile of tiles) {
    for (const requirement of unlockChallengeIds(tile.unlockRequirements)) {
      const a = at.get(tile.id);
      const b = at.get(requirement);
      const other = byId.get(requirement);
      if (!a || !b || !other || Math.abs(a.x - b.x) + Math.abs(a.y - b.y) !== 1) continue;
      const [first, second] = a.x + a.y < b.x + b.y ? [a, b] : [b, a];
      const key = `${first.id}-${second.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const solved = Number(tile.solved) + Number(other.solved);
      links.push({ from: first.id, to: second.id, direction: first.y === second.y ? "right" : "down", state: solved === 2 ? "solved" : solved === 1 ? "unlocked" : "locked" });
    }
  }
  return links;
}
