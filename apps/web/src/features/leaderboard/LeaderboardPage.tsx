import { Alert, Anchor, Button, Card, Group, SegmentedControl, Skeleton, Stack, Tabs, Text, Title } from "@mantine/core";
import { TIMINGS } from "@flagship/shared";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import "../groups/texts.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { useStaffView, useViewAsPlayer } from "../../shell/viewAsPlayer.ts";
import { FreezeNotice } from "../moments/FreezeNotice.tsx";
import "../moments/texts.ts";
import { useEventMoment } from "../moments/useEventMoment.ts";
import { BoardTable } from "./BoardTable.tsx";
import { ScoreGraph, toSeries } from "./ScoreGraph.tsx";

const PAGE = 100;

function useReload() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.config.experiments.queryOptions(undefined, { staleTime: 60_000 }));
  return data?.leaderboardReload ? TIMINGS.leaderboardReloadMs : false;
}

/**
 * A board: teams or users; `group` narrows the team board and its graph to one division; `players`
 * asks staff's board as players see it (frozen while the freeze lasts).
 */
function Board({ kind, group, players }: { kind: "team" | "user"; group?: number; players: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  const [limit, setLimit] = useState(PAGE);
  const refetchInterval = useReload();
  const filter = { ...(group !== undefined && { group }), ...(players && { players }) };
  const input = { limit, offset: 0, ...filter };
  const teams = useQuery(trpc.leaderboard.teams.queryOptions(input, { enabled: kind === "team", placeholderData: keepPreviousData, refetchInterval }));
  const users = useQuery(trpc.leaderboard.users.queryOptions({ limit, offset: 0, ...(players && { players }) }, { enabled: kind === "user", placeholderData: keepPreviousData, refetchInterval }));
  const graph = useQuery(trpc.leaderboard.graph.queryOptions(Object.keys(filter).length === 0 ? undefined : filter, { refetchInterval }));
  const query = kind === "team" ? teams : users;

  if (query.isPending) return <Skeleton h={320} />;
  if (query.isError) {
    return (
      <Alert color="red" title={t("lists.paginated_error")}>
        <Button size="xs" variant="white" color="red" onClick={() => void query.refetch()}>
          {t("generic.retry")}
        </Button>
      </Alert>
    );
  }
  const data = query.data;
  if ("hidden" in data) return <Alert color="gray">{t("leaderboard.hidden")}</Alert>;
  const rows =
    kind === "team"
      ? (data.results as { id: number; name: string; leaderboard_points: number }[]).map((r) => ({ id: r.id, name: r.name, points: r.leaderboard_points }))
      : (data.results as { id: number; username: string; leaderboard_points: number }[]).map((r) => ({ id: r.id, name: r.username, points: r.leaderboard_points }));
  const g = graph.data && !("hidden" in graph.data) ? graph.data : null;
  const top = rows.slice(0, 10).map((r) => r.name);
  const series = g ? (kind === "team" ? toSeries(g.team ?? [], (p) => p.team_name, top) : toSeries(g.user, (p) => p.user_name, top)) : [];

  return (
    <Stack gap="lg">
      {series.length > 0 && (
        <Card withBorder padding="sm">
          <ScoreGraph series={series} label={t("leaderboard.graph_label")} startTime={config?.start_time ?? null} endTime={config?.end_time ?? null} />
        </Card>
      )}
      <BoardTable rows={rows} total={data.count} kind={kind} onLoadMore={() => setLimit((l) => l + PAGE)} loadingMore={query.isFetching} />
    </Stack>
  );
}

/**
 * /leaderboard: team and user tabs when teams are on, and a tab per leaderboard group that has its
 * own board (the tab kept in the URL hash: `user`, `group-3`).
 */
export function LeaderboardPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  const navigate = useNavigate();
  const hash = useLocation({ select: (l) => l.hash });
  const teams = config?.enable_teams !== false;
  const groups = useQuery(trpc.teams.groups.list.queryOptions(undefined, { staleTime: 60_000, enabled: teams }));
  const boards = (groups.data?.results ?? []).filter((g) => g.has_own_leaderboard);
  const known = hash === "user" || boards.some((g) => `group-${g.id}` === hash);
  const tab = teams ? (known ? hash : "team") : "user";
  const staffView = useStaffView();
  const moment = useEventMoment();
  const [board, setBoard] = useState<"live" | "players">("live");
  const preview = useViewAsPlayer();
  // Staff choose between the live board and the frozen one players see (a player preview shows the
  // latter); everyone else only has theirs.
  const frozen = moment?.frozenAt !== null && moment?.frozenAt !== undefined;
  const players = frozen && (preview || (staffView && board === "players"));
  const final = moment?.phase === "ended" && !moment.frozenAt;
  return (
    <Stack maw={1100} mx="auto" gap="md">
      <Group justify="space-between">
        <Title order={1}>{final ? t("moments.final_board") : t("nav.leaderboard")}</Title>
        <Group gap="md">
          <Text c="dimmed" size="sm">
            {config?.event_name}
          </Text>
          {/* The same board for a big screen, without the app around it. */}
          <Anchor component={Link} to="/largeLeaderboard" size="sm">
            {t("leaderboard.projector_link")}
          </Anchor>
        </Group>
      </Group>
      <FreezeNotice staffView={staffView && !players} />
      {staffView && moment?.frozenAt ? (
        <SegmentedControl
          value={board}
          onChange={(value) => setBoard(value as "live" | "players")}
          aria-label={t("moments.staff_board_label")}
          data={[
            { value: "live", label: t("moments.staff_board_live") },
            { value: "players", label: t("moments.staff_board_players") },
          ]}
          data-testid="staff-board-choice"
          style={{ alignSelf: "flex-start" }}
        />
      ) : null}
      {teams ? (
        <Tabs value={tab} onChange={(value) => void navigate({ to: ".", hash: value ?? "team", replace: true })} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="team">{t("leaderboard.teams")}</Tabs.Tab>
            <Tabs.Tab value="user">{t("leaderboard.users")}</Tabs.Tab>
            {boards.map((g) => (
              <Tabs.Tab key={g.id} value={`group-${g.id}`}>
                {g.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="team">
            <Board kind="team" players={players} />
          </Tabs.Panel>
          <Tabs.Panel value="user">
            <Board kind="user" players={players} />
          </Tabs.Panel>
          {boards.map((g) => (
            <Tabs.Panel key={g.id} value={`group-${g.id}`}>
              <Board kind="team" group={g.id} players={players} />
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : (
        <Board kind="user" players={players} />
      )}
    </Stack>
  );
}
