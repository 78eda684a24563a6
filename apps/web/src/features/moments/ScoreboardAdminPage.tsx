import { Anchor, Card, Group, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { AdminPage } from "../admin/AdminPage.tsx";
import { ConfirmButton } from "../admin/ConfirmButton.tsx";
import { errorText } from "../auth/errors.ts";
import { formatEventTime } from "./event-time.ts";
import "./texts.ts";
import { useEventMoment } from "./useEventMoment.ts";

/**
 * /admin/scoreboard: what players see of the scores right now, and the prize-giving's one action,
 * revealing the final board (the end of the event does not lift a freeze).
 */
export function ScoreboardAdminPage() {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { config } = useAppData();
  const moment = useEventMoment();
  const reveal = useMutation(
    trpc.leaderboard.reveal.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("scoreboard_admin.revealed") });
        // Everyone's pages hear of it on the socket; this one re-reads at once.
        await queryClient.invalidateQueries();
      },
      onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
    }),
  );
  const freeze = config?.scoreboard_freeze_time ?? null;
  const when = (seconds: number) => formatEventTime(i18n.language, seconds);
  const status = moment?.frozenAt
    ? t("scoreboard_admin.frozen", { time: when(moment.frozenAt) })
    : freeze !== null
      ? t("scoreboard_admin.freezes_at", { time: when(freeze) })
      : t("scoreboard_admin.live");
  return (
    <AdminPage title={t("admin.scoreboard")} intro={t("scoreboard_admin.intro")}>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Title order={2} size="h3">
            {t("scoreboard_admin.status")}
          </Title>
          <Text data-testid="scoreboard-status">{status}</Text>
          {moment?.frozenAt ? (
            <>
              <Text size="sm" c="dimmed">
                {moment.phase === "ended" ? t("scoreboard_admin.reveal_help_ended") : t("scoreboard_admin.reveal_help_running")}
              </Text>
              <Group>
                <ConfirmButton
                  color="flagship"
                  title={t("scoreboard_admin.reveal_title")}
                  body={t("scoreboard_admin.reveal_body")}
                  confirm={t("scoreboard_admin.reveal")}
                  loading={reveal.isPending}
                  onConfirm={() => reveal.mutateAsync().catch(() => undefined)}
                  data-testid="reveal-board"
                >
                  {t("scoreboard_admin.reveal")}
                </ConfirmButton>
              </Group>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t("scoreboard_admin.nothing_to_reveal")}{" "}
              <Anchor component={Link} to="/admin/config">
                {t("admin.config")}
              </Anchor>
            </Text>
          )}
          <Group gap="md">
            <Anchor component={Link} to="/leaderboard">
              {t("scoreboard_admin.open_leaderboard")}
            </Anchor>
            <Anchor component={Link} to="/largeLeaderboard">
              {t("scoreboard_admin.open_projector")}
            </Anchor>
          </Group>
        </Stack>
      </Card>
    </AdminPage>
  );
}
