import { Badge, Button, Card, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import type { ChallengeView } from "./types.ts";

type Hint = ChallengeView["hints"][number];

/** The challenge's hints: using one asks for confirmation, showing what it will cost. */
export function HintList({ challenge, canUse }: { challenge: ChallengeView; canUse: boolean }) {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<Hint | null>(null);
  const use = useMutation(
    trpc.hints.use.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
      },
      onError: (error) => {
        setConfirming(null);
        const code = errorCode(error);
        notifications.show({ color: "red", message: code ? t(`errors.${code}`) : error.message });
      },
    }),
  );
  if (challenge.hints.length === 0) return null;
  const names = new Map(challenge.hints.map((hint) => [hint.id, hint.name]));
  const used = new Set(challenge.hints.filter((hint) => hint.used).map((hint) => hint.id));
  /** The hints still to use before this one, by name. */
  const waitingOn = (hint: Hint) => (hint.requirements ?? []).filter((id) => !used.has(id) && names.has(id)).map((id) => names.get(id)!);
  const list = (items: string[]) => new Intl.ListFormat(i18n.language || "en", { type: "conjunction" }).format(items.map((name) => `“${name}”`));
  return (
    <Stack gap="xs">
      <Text fw={600}>{t("challenges.hints")}</Text>
      {challenge.hints.map((hint) => (
        <Card key={hint.id} withBorder padding="sm" data-testid={`hint-${hint.id}`}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={4} style={{ flex: 1 }}>
              <Group gap="xs">
                <Text fw={500}>{hint.name}</Text>
                <Badge color="orange" variant="light" size="sm">
                  {t("challenges.hint_penalty", { penalty: hint.penalty })}
                </Badge>
              </Group>
              {hint.used && <Markdown>{hint.text}</Markdown>}
              {!hint.used && waitingOn(hint).length > 0 && (
                <Text size="sm" c="dimmed" id={`hint-${hint.id}-requires`} data-testid="hint-requires">
                  {t("challenges.hint_requires", { names: list(waitingOn(hint)), interpolation: { escapeValue: false } })}
                </Text>
              )}
            </Stack>
            {hint.used ? (
              <Badge variant="outline" color="gray">
                {t("challenges.hint_used")}
              </Badge>
            ) : (
              <Button
                size="xs"
                variant="light"
                color="orange"
                disabled={!canUse || waitingOn(hint).length > 0}
                aria-describedby={waitingOn(hint).length > 0 ? `hint-${hint.id}-requires` : undefined}
                onClick={() => setConfirming(hint)}
              >
                {t("challenges.use_hint")}
              </Button>
            )}
          </Group>
        </Card>
      ))}
      <Dialog opened={confirming !== null} onClose={() => setConfirming(null)} title={t("challenges.hint_confirm_title")} centered>
        {confirming && (
          <Stack>
            <Text>{t("challenges.hint_confirm_body", { name: confirming.name, penalty: confirming.penalty })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t("challenges.cancel")}
              </Button>
              <Button color="orange" loading={use.isPending} onClick={() => use.mutate({ id: confirming.id })}>
                {t("challenges.hint_confirm")}
              </Button>
            </Group>
          </Stack>
        )}
      </Dialog>
    </Stack>
  );
}
