import { Anchor, Badge, Button, Group, SegmentedControl, Select, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import type { AppRouter } from "@flagship/api";
import type { inferRouterOutputs } from "@trpc/server";
import { useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { download } from "../../lib/download.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage } from "../admin/AdminPage.tsx";
import { type LogColumn, StaffLogTable } from "../admin/StaffLogTable.tsx";
import { errorText } from "../auth/errors.ts";
import { isFull } from "../challenges/types.ts";
import { useCategories } from "../challenges/useCategories.ts";
import "./texts.ts";

type Submission = inferRouterOutputs<AppRouter>["moderation"]["submissions"]["results"][number];
type Result = "all" | "right" | "wrong";

const PAGE = 50;

/**
 * /admin/submissions: every flag sent, newest first, live (a wrong flag's staff event or a solve
 * refetches the loaded pages: the first from the top, each older one from the cursor the page
 * before it now ends at, so new rows push the list down without gaps or repeats), filtered by
 * challenge and result from the controls and by team or player by choosing a name in the table.
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
    trpc.moderation.submissions.infiniteQueryOptions({ limit: PAGE, ...filter }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const challengeOptions = useMemo(
    () => (categories.data ?? []).map((c) => ({ group: c.name, items: c.challenges.filter(isFull).map((ch) => ({ value: String(ch.id), label: ch.name })) })),
    [categories.data],
  );
  const rows: Submission[] = log.data?.pages.flatMap((p) => p.results) ?? [];
  // The first page's count: older pages do not count again.
  const first = log.data?.pages[0];
  const columns: LogColumn<Submission>[] = [
    { label: t("moderation.time"), nowrap: true, cell: (s) => new Date(s.timestamp).toLocaleString() },
    {
      label: t("moderation.result"),
      cell: (s) => (
        <Badge color={s.correct ? "green" : "red"} variant="light">
          {s.correct ? t("moderation.right") : t("moderation.wrong")}
        </Badge>
      ),
    },
    {
      label: t("moderation.team"),
      cell: (s) => (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setTeam({ id: s.team, name: s.team_name })} aria-label={t("moderation.filter_team", { name: s.team_name })}>
          {s.team_name}
        </Anchor>
      ),
    },
    {
      label: t("moderation.player"),
      cell: (s) => (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setUser({ id: s.user, name: s.username })} aria-label={t("moderation.filter_player", { name: s.username })}>
          {s.username}
        </Anchor>
      ),
    },
    { label: t("moderation.challenge"), cell: (s) => s.challenge_name },
    {
      label: t("moderation.flag"),
      cell: (s) =>
        s.flag !== null ? (
          <Text size="sm" ff="monospace" maw={320} style={{ overflowWrap: "anywhere" }}>
            {s.flag}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {s.marked_by ? t("moderation.marked_by", { name: s.marked_by }) : t("moderation.no_flag")}
          </Text>
        ),
    },
    {
      label: t("moderation.address"),
      cell: (s) => (
        <Text size="sm" ff="monospace">
          {s.ip ?? "—"}
        </Text>
      ),
    },
  ];

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await queryClient.fetchQuery(trpc.moderation.submissionsCsv.queryOptions(filter, { staleTime: 0 }));
      download(file.filename, file.csv, "text/csv;charset=utf-8");
      notifications.show(
        file.cut
          ? { color: "yellow", autoClose: false, message: t("moderation.export_cut", { count: file.rows }) }
          : { color: "green", message: t("moderation.exported", { count: file.rows }) },
      );
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
      <StaffLogTable
        query={log}
        rows={rows}
        rowKey={(s) => s.key}
        columns={columns}
        count={first?.count_capped ? t("moderation.count_capped", { count: first.count ?? 0 }) : t("moderation.count", { count: first?.count ?? 0 })}
        empty={t("moderation.empty")}
        minWidth={860}
        testId="submissions"
        rowTestId="submission"
      />
    </AdminPage>
  );
}
