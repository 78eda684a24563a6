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
  const { t } = useTranslation();
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
            </Stack>
            {hint.used ? (
              <Badge variant="outline" color="gray">
                {t("challenges.hint_used")}
              </Badge>
            ) : (
              <Button size="xs" variant="light" color="orange" disabled={!canUse} onClick={() => setConfirming(hint)}>
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
