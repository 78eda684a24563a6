import { Badge, type MantineColor } from "@mantine/core";
import { difficultyLabel } from "@flagship/shared";

/** Each difficulty's dot, from calm to alarming, so the pills differ at a glance (the word still says which). */
const DOTS: Record<string, MantineColor> = { Trivial: "gray", Easy: "green", Medium: "yellow", Hard: "red", Insane: "grape" };

/** A challenge's difficulty (from its points) as a pill with a coloured dot; nothing below the easiest. */
export function DifficultyBadge({ score }: { score: number }) {
  const difficulty = difficultyLabel(score);
  if (!difficulty) return null;
  return (
    <Badge variant="dot" color={DOTS[difficulty] ?? "gray"} data-testid="difficulty">
      {difficulty}
    </Badge>
  );
}
