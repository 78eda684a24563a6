import { difficultyLabel } from "./constants.ts";

/**
 * Difficulties staff may set on a challenge. The choice lives in challenge_metadata.difficulty, so
 * no REST shape changes: RACTF's client passes the metadata through untouched.
 */
export const DIFFICULTIES = ["easy", "medium", "hard", "insane"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** Each difficulty as players read it; the same words the points-based fallback uses. */
export const DIFFICULTY_LABELS: Record<Difficulty, string> = { easy: "Easy", medium: "Medium", hard: "Hard", insane: "Insane" };

export function isDifficulty(value: unknown): value is Difficulty {
  return typeof value === "string" && (DIFFICULTIES as readonly string[]).includes(value);
}

/**
 * The difficulty a challenge shows: the one staff set (challenge_metadata.difficulty), or, when
 * none is set (or an unknown word is stored), the one its points suggest; null for neither.
 */
export function challengeDifficulty(setDifficulty: unknown, score: number): string | null {
  return isDifficulty(setDifficulty) ? DIFFICULTY_LABELS[setDifficulty] : difficultyLabel(score);
}
