import { Alert, Button, Group, Stack, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { NextChallenge } from "./NextChallenge.tsx";
import type { ChallengeView } from "./types.ts";

/** 'You have already solved this challenge!' with the offer to give feedback. */
export function SolvedPanel({ challenge }: { challenge: ChallengeView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const feedback = useMutation(
    trpc.challenges.feedback.mutationOptions({
      onSuccess: () => {
        setText("");
        notifications.show({ color: "green", message: t("challenges.feedback_sent") });
      },
      onError: (error) => {
        const code = errorCode(error);
        notifications.show({ color: "red", message: code ? t(`errors.${code}`) : error.message });
      },
    }),
  );
  return (
    <Stack gap="sm">
      <Alert color="green" variant="light" title={t("challenges.already_solved")} data-testid="already-solved" tabIndex={-1}>
        {t("challenges.feedback_offer")}
      </Alert>
      {challenge.post_score_explanation && (
        <Alert variant="light" title={t("challenges.explanation")}>
          <Markdown>{challenge.post_score_explanation}</Markdown>
        </Alert>
      )}
      <Group>
        <NextChallenge challenge={challenge} />
      </Group>
      {/* Grows with what is typed by the browser's own sizing (styles.css), not Mantine's autosize, which
          measures the field as the page hydrates: a forced layout in the start of every solved challenge. */}
      <Textarea label={t("challenges.feedback")} placeholder={t("challenges.feedback_placeholder")} value={text} onChange={(e) => setText(e.currentTarget.value)} rows={2} resize="vertical" classNames={{ input: "grow-field" }} maxLength={10_000} />
      <Group justify="flex-end">
        <Button variant="light" disabled={text.trim() === ""} loading={feedback.isPending} onClick={() => feedback.mutate({ challenge: challenge.id, feedback: text })}>
          {t("challenges.send_feedback")}
        </Button>
      </Group>
    </Stack>
  );
}
