import { Badge, type MantineColor } from "@mantine/core";
import { challengeDifficulty } from "@flagship/shared";

/** Each difficulty's dot, from calm to alarming, so the pills differ at a glance (the word still says which). */
const DOTS: Record<string, MantineColor> = { Trivial: "gray", Easy: "green", Medium: "yellow", Hard: "red", Insane: "grape" };

/**
 * A challenge's difficulty as a pill with a coloured dot: the one staff set
 * (challenge_metadata.difficulty, passed as `difficulty`), else the one its points suggest;
 * nothing below the easiest.
 */
export function DifficultyBadge({ score, difficulty }: { score: number; difficulty?: unknown }) {
  const label = challengeDifficulty(difficulty, score);
  if (!label) return null;
  return (
    <Badge variant="dot" color={DOTS[label] ?? "gray"} data-testid="difficulty">
      {label}
    </Badge>
  );
}
