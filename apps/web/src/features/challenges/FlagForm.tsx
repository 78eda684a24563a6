import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { DialogTitle as NamingTitle } from "../../lib/DialogTitle.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { MissingRenderer } from "../../shell/MissingRenderer.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { FlagIcon } from "./icons.tsx";
import { challengeRenderer } from "./registry.tsx";
import type { ChallengeView } from "./types.ts";

type Value = string | [number, number] | null;

export interface Solved {
  explanation: string;
  /** The challenge's points at the solve. */
  points: number;
  /** What the team's hints on it cost, taken off those points. */
  penalty: number;
}

/**
 * Flag submission: idle, submitting (the form locked), then correct (handed to `onSolved`, which
 * shows the dialog), incorrect ('Incorrect flag') or an error on the input.
 */
export function FlagForm({ challenge, onSolved }: { challenge: ChallengeView; onSolved(solved: Solved): void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const prefix = useAppData().config?.flag_prefix ?? "flag";
  const renderer = challengeRenderer(challenge.challenge_type);
  const [value, setValue] = useState<Value>(null);
  const [outcome, setOutcome] = useState<{ kind: "incorrect" | "limit" } | { kind: "error"; message: string } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  // Whether the flag field takes the focus back once the answer is in: a Submit button that
  // disables itself while the guess is checked drops the focus to the page, and the player's next
  // guess starts in the field. Not after a correct flag, whose dialog takes the focus.
  const refocus = useRef(false);
  const submit = useMutation(
    trpc.challenges.submitFlag.mutationOptions({
      onSuccess: (result) => {
        if (result.m === "correct_flag") {
          refocus.current = false;
          setOutcome(null);
          onSolved({ explanation: result.d.explanation, points: challenge.current_score, penalty: challenge.hints.filter((h) => h.used).reduce((sum, h) => sum + h.penalty, 0) });
        } else {
          setOutcome({ kind: result.m === "attempt_limit_reached" ? "limit" : "incorrect" });
        }
      },
      onError: (error) => {
        const code = errorCode(error);
        setOutcome({ kind: "error", message: code ? t(`errors.${code}`) : error.message });
      },
    }),
  );
  useEffect(() => {
    if (submit.isPending || !refocus.current) return;
    refocus.current = false;
    const active = document.activeElement;
    if (active && active !== document.body && !box.current?.contains(active)) return;
    box.current?.querySelector<HTMLElement>("[data-testid=flag-input], input:not([type=hidden]), textarea, [contenteditable=true]")?.focus();
  }, [submit.isPending]);
  const onChange = useCallback((next: Value) => {
    setValue(next);
    setOutcome(null);
  }, []);
  if (!renderer) return <MissingRenderer kind="challenge" type={challenge.challenge_type} />;
  const canSubmit = renderer.canSubmit(challenge, value, prefix) && !submit.isPending;
  const send = () => {
    if (!canSubmit || value === null) return;
    refocus.current = true;
    submit.mutate({ challenge: challenge.id, flag: value });
  };
  return (
    <Stack gap="sm" ref={box}>
      <renderer.FlagInput challenge={challenge} value={value} onChange={onChange} disabled={submit.isPending} onSubmit={send} />
      {outcome?.kind === "incorrect" && <Alert color="red" variant="light" role="alert" title={t("challenges.incorrect")} data-testid="flag-incorrect" />}
      {outcome?.kind === "limit" && (
        <Alert color="orange" variant="light" role="alert">
          {t("challenges.attempt_limit")}
        </Alert>
      )}
      {outcome?.kind === "error" && (
        <Text c="red" size="sm" role="alert">
          {outcome.message}
        </Text>
      )}
      <Group justify="flex-end">
        <Button onClick={send} disabled={!canSubmit} loading={submit.isPending} leftSection={<FlagIcon size={16} />}>
          {t("challenges.submit")}
        </Button>
      </Group>
    </Stack>
  );
}

/** How Mantine's `<Title order={2}>` looks, for the heading that names a dialog. */
const H2_STYLE: React.CSSProperties = {
  margin: 0,
  fontFamily: "var(--mantine-font-family-headings)",
  fontSize: "var(--mantine-h2-font-size)",
  fontWeight: "var(--mantine-h2-font-weight)",
  lineHeight: "var(--mantine-h2-line-height)",
  textWrap: "var(--mantine-heading-text-wrap)",
};

/** A dialog's visible h2, in the content rather than a header, that also names the dialog. */
export function DialogTitle({ children, style }: { children: React.ReactNode; style?: React.CSSProperties }) {
  return <NamingTitle style={{ ...H2_STYLE, ...style }}>{children}</NamingTitle>;
}
