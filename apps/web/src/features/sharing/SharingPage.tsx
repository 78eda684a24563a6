import { Badge, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, EmptyState, QueryState } from "../admin/AdminPage.tsx";
import { ConfirmButton } from "../admin/ConfirmButton.tsx";
import "./texts.ts";
import "../admin/texts.ts";

const PAGE = 25;

interface TeamRef {
  id: number;
  name: string;
  is_visible: boolean;
}

/** /admin/sharing: suspected flag sharing with its evidence; staff disqualify either team. */
export function SharingPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const incidents = useInfiniteQuery(
    trpc.admin.sharing.infiniteQueryOptions(
      { limit: PAGE },
      {
        getNextPageParam: (last, pages) => {
          const loaded = pages.reduce((n, p) => n + p.results.length, 0);
          return loaded < last.count && last.results.length > 0 ? loaded : undefined;
        },
      },
    ),
  );
  const rows = incidents.data?.pages.flatMap((p) => p.results) ?? [];
  return (
    <AdminPage title={t("sharing.page")} intro={t("sharing.intro")}>
      <QueryState query={{ ...incidents, data: incidents.data }}>
        {(data) =>
          rows.length === 0 ? (
            <EmptyState>{t("sharing.empty")}</EmptyState>
          ) : (
            <Stack>
              <Text size="sm" c="dimmed">
                {t("sharing.count", { count: data.pages[0]?.count ?? 0 })}
              </Text>
              {rows.map((incident) => (
                <Card key={incident.id} withBorder padding="md" component="article" aria-labelledby={`incident-${incident.id}`} data-testid="sharing-incident">
                  <Stack gap="sm">
                    <Group justify="space-between" gap="xs" wrap="wrap">
                      <Group gap="xs">
                        <Badge color={incident.kind === "team_flag" ? "red" : "orange"} variant="light" style={{ textTransform: "none" }}>
                          {t(`sharing.kind_${incident.kind}`)}
                        </Badge>
                        <Title order={2} size="h5" id={`incident-${incident.id}`}>
                          {incident.challenge.name}
                        </Title>
                      </Group>
                      <Text size="sm" c="dimmed" component="time" dateTime={incident.time}>
                        {new Date(incident.time).toLocaleString()}
                      </Text>
                    </Group>
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                      <TeamCell label={t("sharing.submitted_by")} team={incident.team} incident={incident.id} />
                      <TeamCell label={t(incident.kind === "team_flag" ? "sharing.flag_of" : "sharing.same_as")} team={incident.other_team} incident={incident.id} />
                    </SimpleGrid>
                    <Stack gap={4}>
                      <Text size="sm" fw={600}>
                        {t("sharing.evidence")}
                      </Text>
                      <Group gap="xs" wrap="wrap">
                        <Text size="sm">{t("sharing.flag")}:</Text>
                        <Code style={{ wordBreak: "break-all" }}>{incident.flag}</Code>
                      </Group>
                      <Text size="sm">
                        {t("sharing.ip")}: {incident.ip ?? t("sharing.none")} · {t("sharing.other_ips")}: {incident.other_ips.length > 0 ? incident.other_ips.join(", ") : t("sharing.none")}
                      </Text>
                    </Stack>
                  </Stack>
                </Card>
              ))}
              {incidents.hasNextPage && (
                <Button variant="default" onClick={() => void incidents.fetchNextPage()} loading={incidents.isFetchingNextPage} w="fit-content" mx="auto">
                  {t("admin_ui.load_more")}
                </Button>
              )}
            </Stack>
          )
        }
      </QueryState>
    </AdminPage>
  );
}

function TeamCell({ label, team, incident }: { label: string; team: TeamRef; incident: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const disqualify = useMutation(
    trpc.admin.disqualify.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("sharing.disqualified_toast", { team: team.name }) });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.sharing.pathKey() });
      },
      onError: (error) => notifications.show({ color: "red", title: t("sharing.disqualify_failed"), message: error.message }),
    }),
  );
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Text fw={600}>{team.name}</Text>
        {team.is_visible ? (
          <ConfirmButton
            size="xs"
            variant="light"
            title={t("sharing.disqualify_title", { team: team.name })}
            body={t("sharing.disqualify_body")}
            confirm={t("sharing.disqualify_confirm")}
            loading={disqualify.isPending}
            onConfirm={() => disqualify.mutateAsync({ incident, team: team.id }).catch(() => undefined)}
          >
            {t("sharing.disqualify", { team: team.name })}
          </ConfirmButton>
        ) : (
          <Badge color="gray" variant="light">
            {t("sharing.disqualified")}
          </Badge>
        )}
      </Group>
    </Stack>
  );
}
