import { Alert, Button, Stack, Text, ThemeIcon } from "@mantine/core";
import { Dialog } from "../../lib/Dialog.tsx";
import { addTexts, useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { DialogTitle, type Solved } from "./FlagForm.tsx";
import { FlagIcon } from "./icons.tsx";
import { NextChallenge } from "./NextChallenge.tsx";
import { Rating } from "./Rating.tsx";
import type { ChallengeView } from "./types.ts";
import { useCategories } from "./useCategories.ts";

// Drawn only after a correct flag: its code and texts load after the challenge page is drawn,
// before a flag can be checked, not with the page's first load.
addTexts({
  challenges: {
    correct_title: "Flag correct!",
    correct_body: "Nice work: your team scored {{points}} points.",
    correct_body_hints: "Nice work: your team scored {{points}} points ({{score}} for the challenge, less {{penalty}} for hints).",
    rate_prompt: "Did you enjoy this challenge?",
    continue: "Continue",
  },
});

/** 'Flag correct!' with the post-score explanation and a rating prompt. */
export function SolvedDialog({ challenge, solved, onClose }: { challenge: ChallengeView; solved: Solved | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog opened={solved !== null} onClose={onClose} centered withCloseButton={false} size="md">
      {solved && (
        <Stack align="center" ta="center" gap="md" py="sm">
          <ThemeIcon size={72} radius="xl" color="green" variant="light">
            <FlagIcon size={40} />
          </ThemeIcon>
          <DialogTitle>{t("challenges.correct_title")}</DialogTitle>
          <Text c="dimmed">
            {solved.penalty > 0
              ? t("challenges.correct_body_hints", { points: Math.max(0, solved.points - solved.penalty), score: solved.points, penalty: solved.penalty })
              : t("challenges.correct_body", { points: solved.points })}
          </Text>
          {solved.explanation && (
            <Alert variant="light" title={t("challenges.explanation")} w="100%" ta="left">
              <Markdown>{solved.explanation}</Markdown>
            </Alert>
          )}
          <Text fw={500}>{t("challenges.rate_prompt")}</Text>
          <SolvedRating challengeId={challenge.id} fallback={challenge} />
          <NextChallenge challenge={challenge} onFollow={onClose} />
          <Button onClick={onClose} fullWidth>
            {t("challenges.continue")}
          </Button>
        </Stack>
      )}
    </Dialog>
  );
}

/** The rating prompt reads the latest votes from the listing, so a vote shows at once. */
function SolvedRating({ challengeId, fallback }: { challengeId: number; fallback: ChallengeView }) {
  const { data: categories } = useCategories();
  const latest = categories?.flatMap((c) => c.challenges).find((c) => c.id === challengeId);
  const challenge = latest && "name" in latest ? latest : fallback;
  return <Rating challenge={challenge} canVote size="lg" />;
}
