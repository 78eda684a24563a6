/** Scoring rules of the contract, shared by the server (solves, decay) and the client (display). */

export const POINTS_TYPES = ["basic", "decay"] as const;
export type PointsType = (typeof POINTS_TYPES)[number];

export const DECAY_DEFAULTS = { decayConstant: 0.99, minPoints: 100 } as const;

export interface DecayParams {
  decay_constant?: unknown;
  min_points?: unknown;
}

/** The decay parameters from flag_metadata, with the contract's defaults. */
export function decayParams(flagMetadata: unknown): { decayConstant: number; minPoints: number } {
  const meta = (typeof flagMetadata === "object" && flagMetadata !== null ? flagMetadata : {}) as DecayParams;
  const c = typeof meta.decay_constant === "number" && meta.decay_constant > 0 && meta.decay_constant <= 1 ? meta.decay_constant : DECAY_DEFAULTS.decayConstant;
  const min = typeof meta.min_points === "number" && Number.isFinite(meta.min_points) ? meta.min_points : DECAY_DEFAULTS.minPoints;
  return { decayConstant: c, minPoints: min };
}

/**
 * A decay challenge's value once `solves` teams (including the latest) have solved it:
 * round(min + (score - min) * c ^ max(n - 1, 0)).
 */
export function decayValue(score: number, solves: number, params: { decayConstant: number; minPoints: number }): number {
  const { decayConstant: c, minPoints: min } = params;
  return Math.round(min + (score - min) * c ** Math.max(solves - 1, 0));
}

/** The challenge's value after `solves` correct solves, for either points type. */
export function challengeValue(pointsType: string, score: number, solves: number, flagMetadata: unknown): number {
  if (pointsType !== "decay" || solves === 0) return score;
  return decayValue(score, solves, decayParams(flagMetadata));
}

/** What a solve is worth: its points less the hint penalty, never below 0. */
export function solveWorth(points: number, penalty: number): number {
  return Math.max(points - penalty, 0);
}

/**
 * Where a score-over-time graph starts (ms since the epoch): the event's start time when it is set
 * (or the first solve, should staff have scored before it), else the first solve; null when
 * nothing was scored. Never the epoch itself, which an unset start time would otherwise give.
 */
export function graphStart(solveTimes: readonly number[], startTime: number | null): number | null {
  if (solveTimes.length === 0) return startTime === null ? null : startTime * 1000;
  const first = Math.min(...solveTimes);
  return startTime === null ? first : Math.min(first, startTime * 1000);
}
