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

/** CTFd's decay functions (its dynamic challenges), chosen by `flag_metadata.decay_function`. */
export const CTFD_DECAY_FUNCTIONS = ["linear", "logarithmic"] as const;
export type CtfdDecayFunction = (typeof CTFD_DECAY_FUNCTIONS)[number];

/**
 * CTFd's value of a decaying challenge once `solves` have been made (CTFd's
 * `plugins/dynamic_challenges/decay.py`, same arithmetic, so the same solves give the same points):
 * the first solver gets `initial`; linear loses `decay` points a solve, logarithmic follows the
 * parabola that reaches `minimum` after `decay` solves; both rounded up and never below `minimum`.
 */
export function ctfdDecayValue(fn: CtfdDecayFunction, initial: number, minimum: number, decay: number, solves: number): number {
  const n = solves > 0 ? solves - 1 : 0;
  let value: number;
  if (fn === "linear") {
    value = Math.ceil(initial - decay * n);
  } else {
    // CTFd turns a decay of 0, which would divide by zero, into 1.
    const d = decay === 0 ? 1 : decay;
    value = Math.ceil(((minimum - initial) / d ** 2) * n ** 2 + initial);
  }
  return value < minimum ? minimum : value;
}

/** The CTFd decay settings of a challenge's flag_metadata, when it has them. */
export function ctfdDecayParams(flagMetadata: unknown): { fn: CtfdDecayFunction; decay: number; minPoints: number } | null {
  const meta = (typeof flagMetadata === "object" && flagMetadata !== null ? flagMetadata : {}) as Record<string, unknown>;
  const fn = meta.decay_function;
  if (fn !== "linear" && fn !== "logarithmic") return null;
  const decay = typeof meta.decay === "number" && Number.isFinite(meta.decay) && meta.decay >= 0 ? meta.decay : 0;
  return { fn, decay, minPoints: decayParams(flagMetadata).minPoints };
}

/** The challenge's value after `solves` correct solves, for either points type. */
export function challengeValue(pointsType: string, score: number, solves: number, flagMetadata: unknown): number {
  if (pointsType !== "decay" || solves === 0) return score;
  const ctfd = ctfdDecayParams(flagMetadata);
  if (ctfd) return ctfdDecayValue(ctfd.fn, score, Math.min(ctfd.minPoints, score), ctfd.decay, solves);
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

/**
 * The time a score-over-time graph spans (ms since the epoch), the same on the leaderboard, a
 * profile and a team page: from graphStart to now, or to the event's end once it is over (or the
 * last solve, should one come later); null when there is nothing to draw from.
 */
export function graphSpan(solveTimes: readonly number[], startTime: number | null, endTime: number | null, now: number): { start: number; end: number } | null {
  const start = graphStart(solveTimes, startTime);
  if (start === null) return null;
  const last = solveTimes.length > 0 ? Math.max(...solveTimes) : start;
  const until = endTime !== null && endTime * 1000 < now ? endTime * 1000 : now;
  return { start, end: Math.max(until, last, start) };
}
