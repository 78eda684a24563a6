import { Anchor, Badge, Button, Group, SegmentedControl, Select, Stack, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import type { AppRouter } from "@flagship/api";
import type { inferRouterOutputs } from "@trpc/server";
import { useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, EmptyState, QueryState } from "../admin/AdminPage.tsx";
import { StackedTable } from "../admin/StackedTable.tsx";
import { errorText } from "../auth/errors.ts";
import { isFull } from "../challenges/types.ts";
import { useCategories } from "../challenges/useCategories.ts";
import "./texts.ts";

type Submission = inferRouterOutputs<AppRouter>["moderation"]["submissions"]["results"][number];
type Result = "all" | "right" | "wrong";

const PAGE = 50;

/** Hands the browser a file to save. */
function download(filename: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * /admin/submissions: every flag sent, newest first, live (a wrong flag's staff event or a solve
 * refetches the first page), filtered by challenge and result from the controls and by team or
 * player by choosing a name in the table.
 */
export function SubmissionsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const categories = useCategories();
  const [challenge, setChallenge] = useState<string | null>(null);
  const [result, setResult] = useState<Result>("all");
  const [team, setTeam] = useState<{ id: number; name: string } | null>(null);
  const [user, setUser] = useState<{ id: number; name: string } | null>(null);
  const [exporting, setExporting] = useState(false);
  const filter = {
    challenge: challenge ? Number(challenge) : undefined,
    correct: result === "all" ? undefined : result === "right",
    team: team?.id,
    user: user?.id,
  };
  const log = useInfiniteQuery(
    trpc.moderation.submissions.infiniteQueryOptions(
      { limit: PAGE, ...filter },
      {
        getNextPageParam: (last, pages) => {
          const loaded = pages.reduce((n, p) => n + p.results.length, 0);
          return loaded < last.count && last.results.length > 0 ? loaded : undefined;
        },
      },
    ),
  );
  const challengeOptions = useMemo(
    () => (categories.data ?? []).map((c) => ({ group: c.name, items: c.challenges.filter(isFull).map((ch) => ({ value: String(ch.id), label: ch.name })) })),
    [categories.data],
  );
  const rows: Submission[] = log.data?.pages.flatMap((p) => p.results) ?? [];

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await queryClient.fetchQuery(trpc.moderation.submissionsCsv.queryOptions(filter, { staleTime: 0 }));
      download(file.filename, file.csv);
      notifications.show({ color: "green", message: t("moderation.exported", { count: file.rows }) });
    } catch (error) {
      notifications.show({ color: "red", message: errorText(error) });
    } finally {
      setExporting(false);
    }
  };

  return (
    <AdminPage
      title={t("moderation.submissions")}
      intro={t("moderation.submissions_intro")}
      actions={
        <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
          {t("moderation.export")}
        </Button>
      }
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select label={t("moderation.challenge")} placeholder={t("moderation.any_challenge")} data={challengeOptions} value={challenge} onChange={setChallenge} clearable searchable w={260} maw="100%" />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="submission-result-label">
            {t("moderation.result")}
          </Text>
          <SegmentedControl
            aria-labelledby="submission-result-label"
            value={result}
            onChange={(v) => setResult(v as Result)}
            data={[
              { value: "all", label: t("moderation.result_all") },
              { value: "right", label: t("moderation.result_right") },
              { value: "wrong", label: t("moderation.result_wrong") },
            ]}
          />
        </Stack>
        {team && (
          <Button variant="light" size="sm" onClick={() => setTeam(null)} rightSection={<span aria-hidden>×</span>}>
            {t("moderation.clear_filter", { name: team.name })}
          </Button>
        )}
        {user && (
          <Button variant="light" size="sm" onClick={() => setUser(null)} rightSection={<span aria-hidden>×</span>}>
            {t("moderation.clear_filter", { name: user.name })}
          </Button>
        )}
      </Group>
      <QueryState query={{ ...log, data: log.data }}>
        {(data) =>
          rows.length === 0 ? (
            <EmptyState>{t("moderation.empty")}</EmptyState>
          ) : (
            <Stack>
              <Text size="sm" c="dimmed" role="status" data-testid="submission-count">
                {t("moderation.count", { count: data.pages[0]?.count ?? 0 })}
              </Text>
              <StackedTable minWidth={860}>
                <Table striped verticalSpacing="xs" data-testid="submissions">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("moderation.time")}</Table.Th>
                      <Table.Th>{t("moderation.result")}</Table.Th>
                      <Table.Th>{t("moderation.team")}</Table.Th>
                      <Table.Th>{t("moderation.player")}</Table.Th>
                      <Table.Th>{t("moderation.challenge")}</Table.Th>
                      <Table.Th>{t("moderation.flag")}</Table.Th>
                      <Table.Th>{t("moderation.address")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((s) => (
                      <Table.Tr key={s.key} data-testid="submission">
                        <Table.Td style={{ whiteSpace: "nowrap" }} data-label={t("moderation.time")}>
                          {new Date(s.timestamp).toLocaleString()}
                        </Table.Td>
                        <Table.Td data-label={t("moderation.result")}>
                          <Badge color={s.correct ? "green" : "red"} variant="light">
                            {s.correct ? t("moderation.right") : t("moderation.wrong")}
                          </Badge>
                        </Table.Td>
                        <Table.Td data-label={t("moderation.team")}>
                          <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setTeam({ id: s.team, name: s.team_name })} aria-label={t("moderation.filter_team", { name: s.team_name })}>
                            {s.team_name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td data-label={t("moderation.player")}>
                          <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setUser({ id: s.user, name: s.username })} aria-label={t("moderation.filter_player", { name: s.username })}>
                            {s.username}
                          </Anchor>
                        </Table.Td>
                        <Table.Td data-label={t("moderation.challenge")}>{s.challenge_name}</Table.Td>
                        <Table.Td data-label={t("moderation.flag")}>
                          {s.flag !== null ? (
                            <Text size="sm" ff="monospace" maw={320} style={{ overflowWrap: "anywhere" }}>
                              {s.flag}
                            </Text>
                          ) : (
                            <Text size="sm" c="dimmed">
                              {s.marked_by ? t("moderation.marked_by", { name: s.marked_by }) : t("moderation.no_flag")}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td data-label={t("moderation.address")}>
                          <Text size="sm" ff="monospace">
                            {s.ip ?? "—"}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </StackedTable>
              {log.hasNextPage && (
                <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} w="fit-content" mx="auto">
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
