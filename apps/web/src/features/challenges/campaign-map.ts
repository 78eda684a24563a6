import type { PlacedTile } from "@flagship/shared";
import { type AnyChallengeView, type ChallengeView, isFull } from "./types.ts";

/** Tile sizes of the campaign map, in CSS pixels: the map grows to its box between these. */
export const MIN_TILE = 84;
export const MAX_TILE = 168;
/** The gap between tiles (links are drawn in it), and the room kept each side for focus rings. */
export const TILE_GAP = 18;
export const FOCUS_ROOM = 6;

export interface MapBounds {
  minX: number;
  minY: number;
  columns: number;
  rows: number;
}

/** The smallest block of cells that holds every placed tile (one cell for an empty map). */
export function mapBounds(placed: readonly PlacedTile[]): MapBounds {
  if (placed.length === 0) return { minX: 0, minY: 0, columns: 1, rows: 1 };
  const xs = placed.map((p) => p.x);
  const ys = placed.map((p) => p.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  return { minX, minY, columns: Math.max(...xs) - minX + 1, rows: Math.max(...ys) - minY + 1 };
}

export interface MapFit {
  /** Each tile's side. */
  tile: number;
  /** The map's width at that size, focus room included. */
  width: number;
  /** Whether the map fits its box at a tile size of MIN_TILE or more. */
  fits: boolean;
}

/** The tile size that spreads `columns` tiles over a box `boxWidth` wide, between MIN_TILE and MAX_TILE. */
export function fitMap(boxWidth: number, columns: number): MapFit {
  const room = boxWidth - 2 * FOCUS_ROOM - (columns - 1) * TILE_GAP;
  const fitted = Math.floor(room / columns);
  const tile = Math.max(MIN_TILE, Math.min(MAX_TILE, fitted));
  return { tile, width: columns * tile + (columns - 1) * TILE_GAP + 2 * FOCUS_ROOM, fits: fitted >= MIN_TILE };
}

export interface CampaignProgress {
  solved: number;
  total: number;
  /** Points of the solved challenges, and of every challenge whose points the player can see. */
  earned: number;
  available: number;
  /** Challenges whose points are not shown yet (locked). */
  locked: number;
}

export function campaignProgress(challenges: readonly AnyChallengeView[]): CampaignProgress {
  const full = challenges.filter(isFull);
  const solved = full.filter((c) => c.solved);
  return {
    solved: solved.length,
    total: challenges.length,
    earned: solved.reduce((sum, c) => sum + c.current_score, 0),
    available: full.reduce((sum, c) => sum + c.current_score, 0),
    locked: challenges.length - full.length,
  };
}

/**
 * The challenge to suggest next: open and unsolved, one that works before one under maintenance,
 * then the fewest points, then the first on the map (row by row).
 */
export function nextChallenge(challenges: readonly AnyChallengeView[], placed: readonly PlacedTile[]): ChallengeView | null {
  const at = new Map(placed.map((p) => [p.id, p]));
  const order = (c: ChallengeView) => {
    const p = at.get(c.id);
    return p ? p.y * 1000 + p.x : Number.MAX_SAFE_INTEGER;
  };
  const open = challenges.filter(isFull).filter((c) => c.unlocked && !c.solved && !c.hidden);
  open.sort((a, b) => Number(a.maintenance) - Number(b.maintenance) || a.current_score - b.current_score || order(a) - order(b));
  return open[0] ?? null;
}

export type TileState = "solved" | "unlocked" | "locked" | "hidden";

export function stateOf(challenge: AnyChallengeView): TileState {
  if (!isFull(challenge)) return "locked";
  if (challenge.solved) return "solved";
  if (challenge.hidden) return "hidden";
  return challenge.unlocked ? "unlocked" : "locked";
}
