import { Badge, Button, Card, Group, NumberInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { errorText } from "../auth/errors.ts";
import { FormHeading, refreshRouters } from "./staff-forms.tsx";
import "./texts.ts";

/** Whose awards: a team's (its own and its players'), or one player's. */
export type AwardsOwner = { team: number } | { user: number };

/**
 * The awards and penalties of a team or a player with their reasons, on the team's page or the
 * player's profile; staff give and remove them here (an award given on a profile is the player's:
 * it moves the player's points and their team's). Players see nothing when there are none.
 */
export function Awards({ owner }: { owner: AwardsOwner }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const staff = useStaffView();
  const awards = useQuery(trpc.moderation.awards.queryOptions(owner));
  // Totals, board and graph move with an award: every live view is read again.
  const refresh = () => refreshRouters(queryClient, ["moderation", "teams", "users", "leaderboard", "stats"]);
  const give = useServerForm({
    initialValues: { points: 0 as number | string, reason: "" },
    submit: (values) => client.moderation.giveAward.mutate({ ...owner, points: Number(values.points), reason: values.reason }),
    success: t("moderation.awarded"),
    onSuccess: async () => {
      give.form.setValues({ points: 0, reason: "" });
      await refresh();
    },
  });
  const remove = useMutation(
    trpc.moderation.removeAward.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("moderation.removed") });
        await refresh();
      },
      onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
    }),
  );
  const list = awards.data ?? [];
  if (!staff && list.length === 0) return null;

  return (
    <Card withBorder padding="lg" radius="md" data-testid="awards">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t("moderation.awards")}
        </Title>
        {list.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t("moderation.awards_empty")}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {list.map((a) => (
              <Group key={a.id} component="li" justify="space-between" wrap="nowrap" gap="sm" data-testid="award">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Badge color={a.points >= 0 ? "green" : "red"} variant="light" style={{ flexShrink: 0 }} td={a.removed_at ? "line-through" : undefined}>
                    {a.points > 0 ? `+${a.points}` : a.points}
                  </Badge>
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                      {a.reason}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {dayjs(a.created_at).format("D MMM HH:mm")}
                      {a.username ? ` · ${a.username}` : ""}
                    </Text>
                  </Stack>
                </Group>
                {a.removed_at ? (
                  <Badge color="gray" variant="outline" style={{ flexShrink: 0 }}>
                    {t("moderation.removed_badge")}
                  </Badge>
                ) : (
                  staff && (
                    <Button size="xs" variant="subtle" color="red" style={{ flexShrink: 0 }} onClick={() => remove.mutate({ id: a.id })} loading={remove.isPending && remove.variables?.id === a.id} aria-label={t("moderation.remove_award", { reason: a.reason })}>
                      {t("moderation.remove")}
                    </Button>
                  )
                )}
              </Group>
            ))}
          </Stack>
        )}
        {staff && (
          <ServerFormBox server={give}>
            <Stack gap="sm">
              <FormHeading title={t("moderation.give_award")} />
              <Group align="flex-start" gap="sm" wrap="wrap">
                <NumberInput label={t("moderation.points")} description={t("moderation.points_help")} allowDecimal={false} w={160} {...give.form.getInputProps("points")} />
                <TextInput label={t("moderation.reason")} maxLength={200} style={{ flex: "1 1 220px" }} {...give.form.getInputProps("reason")} />
              </Group>
              <Button type="submit" loading={give.pending} w="fit-content">
                {t("moderation.give")}
              </Button>
            </Stack>
          </ServerFormBox>
        )}
      </Stack>
    </Card>
  );
}
