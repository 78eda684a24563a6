import { Button } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { addTexts, useTranslation } from "../../lib/i18n.ts";
import { challengeKey, type ChallengeView, isFull } from "./types.ts";
import { useCategories } from "./useCategories.ts";

addTexts({ challenges: { next_challenge: "Next: {{name}}" } });

/**
 * The challenge its author suggests after this one (ctfcli's `next`), as a link: only when the
 * caller's own listing has it in full (a hidden, scheduled or locked one is never named).
 */
export function NextChallenge({ challenge, onFollow }: { challenge: ChallengeView; onFollow?: () => void }) {
  const { t } = useTranslation();
  const { data: categories } = useCategories();
  if (challenge.next_challenge === null || challenge.next_challenge === undefined) return null;
  for (const category of categories ?? []) {
    const next = category.challenges.find((c) => c.id === challenge.next_challenge);
    if (next && isFull(next) && next.id !== challenge.id) {
      return (
        <Button component={Link} to={`/campaign/${category.slug}/${challengeKey(next)}`} variant="light" fullWidth onClick={onFollow} data-testid="next-challenge">
          {t("challenges.next_challenge", { name: next.name })}
        </Button>
      );
    }
  }
  return null;
}
