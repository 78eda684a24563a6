import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { percentOf, pointDistribution } from "@flagship/shared";
import { useQuery } from "@tanstack/react-query";
import type { EChartsCoreOption } from "echarts/core";
import { useCallback, useMemo } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ChartCard } from "../profiles/ChartCard.tsx";
import { NARROW_CHART } from "../profiles/chartOptions.ts";
import { AdminPage, QueryState } from "./AdminPage.tsx";
import { StackedTable } from "./StackedTable.tsx";
import type { FullStats } from "./types.ts";
import "./texts.ts";

/**
 * The challenge names beside the bars, cut short with an ellipsis where long (the tooltip and the
 * table below have them whole), shorter in a phone's card so the bars keep room.
 */
function nameAxis(names: string[]) {
  return { type: "category", data: names, inverse: true, axisLabel: { width: 200, overflow: "truncate" } };
}
const NAME_AXIS_MEDIA = [{ option: { yAxis: { axisLabel: { width: 200 } } } }, { query: NARROW_CHART, option: { yAxis: { axisLabel: { width: 100 } } } }];

/** /admin/statistics: accounts, teams, addresses, points and how each challenge is going. */
export function StatisticsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const stats = useQuery(trpc.stats.full.queryOptions(undefined, { staleTime: 0 }));
  return (
    <AdminPage title={t("admin.statistics")} intro={t("stats_admin.intro")}>
      <QueryState query={stats}>{(data) => <StatsView stats={data} />}</QueryState>
    </AdminPage>
  );
}

function StatsView({ stats }: { stats: FullStats }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  // Every challenge, untried ones too; the solve rate is the share of teams that solved it.
  const perChallenge = useQuery(trpc.moderation.challengeStats.queryOptions(undefined, { staleTime: 0 }));
  const challenges = useMemo(
    () =>
      (perChallenge.data?.challenges ?? [])
        .map((c) => ({ id: String(c.id), name: c.name, correct: c.solves, incorrect: c.incorrect, rate: c.solve_rate }))
        .sort((a, b) => b.correct + b.incorrect - (a.correct + a.incorrect)),
    [perChallenge.data],
  );
  const distribution = useMemo(() => pointDistribution(stats.team_point_distribution), [stats.team_point_distribution]);

  const attempts = useCallback(
    (): EChartsCoreOption => ({
      tooltip: { trigger: "axis", axisPointer: { type: "shadow" } },
      legend: { top: 0 },
      grid: { left: 8, right: 16, bottom: 8, top: 32, containLabel: true },
      xAxis: { type: "value", minInterval: 1, axisLabel: { hideOverlap: true } },
      yAxis: nameAxis(challenges.map((c) => c.name)),
      series: [
        { name: t("stats_admin.correct"), type: "bar", stack: "all", data: challenges.map((c) => c.correct), color: "#2f9e44" },
        { name: t("stats_admin.incorrect"), type: "bar", stack: "all", data: challenges.map((c) => c.incorrect), color: "#e03131" },
      ],
      media: NAME_AXIS_MEDIA,
    }),
    [challenges, t],
  );
  const rates = useCallback(
    (): EChartsCoreOption => ({
      tooltip: { trigger: "axis", valueFormatter: (v: unknown) => `${Number(v).toFixed(2)}%` },
      grid: { left: 8, right: 24, bottom: 8, top: 16, containLabel: true },
      xAxis: { type: "value", max: 100, axisLabel: { formatter: "{value}%", hideOverlap: true } },
      yAxis: nameAxis(challenges.map((c) => c.name)),
      series: [{ name: t("stats_admin.solve_rate"), type: "bar", data: challenges.map((c) => c.rate) }],
      media: NAME_AXIS_MEDIA,
    }),
    [challenges, t],
  );
  const teams = useCallback(
    (): EChartsCoreOption => ({
      tooltip: { trigger: "axis" },
      // The axis names sit outside the labelled grid: points under the axis, not off its end.
      grid: { left: 8, right: 16, bottom: 28, top: 36, containLabel: true },
      xAxis: { type: "category", name: t("stats_admin.points"), nameLocation: "middle", nameGap: 28, data: distribution.map((d) => String(d.points)) },
      yAxis: { type: "value", name: t("stats_admin.teams"), minInterval: 1 },
      series: [{ name: t("stats_admin.teams"), type: "bar", data: distribution.map((d) => d.teams) }],
    }),
    [distribution, t],
  );
  const userSlices = useMemo(
    (): [string, number][] => [
      [t("stats_admin.confirmed"), stats.users.confirmed],
      [t("stats_admin.unconfirmed"), stats.users.all - stats.users.confirmed],
    ],
    [stats.users, t],
  );
  const shares = useMemo(() => new Map(userSlices.map(([name, value]) => [name, `${percentOf(value, stats.users.all).toFixed(2)}%`])), [userSlices, stats.users.all]);
  const users = useCallback(
    (): EChartsCoreOption => ({
      tooltip: { trigger: "item", formatter: "{b}: {c} ({d}%)" },
      // The shares in the legend, not around the ring: there they ran off a phone's card, and a
      // slice of 0% put its label over the other's.
      legend: { bottom: 0, formatter: (name: string) => `${name}: ${shares.get(name) ?? ""}` },
      series: [
        {
          type: "pie",
          radius: ["40%", "70%"],
          center: ["50%", "45%"],
          label: { show: false },
          data: userSlices.map(([name, value]) => ({ name, value })),
        },
      ],
    }),
    [userSlices, shares],
  );
  const chartHeight = Math.max(220, challenges.length * 28 + 60);

  const numbers: [string, number, string?][] = [
    [t("stats_admin.users_all"), stats.users.all],
    [t("stats_admin.users_confirmed"), stats.users.confirmed, `${percentOf(stats.users.confirmed, stats.users.all).toFixed(2)}%`],
    [t("stats_admin.teams"), stats.teams],
    [t("stats_admin.ips"), stats.ips],
    [t("stats_admin.total_points"), stats.total_points],
  ];

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} data-testid="stat-numbers">
        {numbers.map(([label, value, share]) => (
          <Card key={label} withBorder radius="md" padding="md">
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {label}
            </Text>
            <Group gap={6} align="baseline">
              <Text fz={26} fw={700}>
                {value}
              </Text>
              {share && (
                <Text size="sm" c="dimmed">
                  {share}
                </Text>
              )}
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <Title order={2} size="h4">
        {t("stats_admin.charts")}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ChartCard title={t("stats_admin.attempts")} empty={challenges.length === 0} build={attempts} height={chartHeight} testId="chart-attempts" />
        <ChartCard title={t("stats_admin.solve_rates")} empty={challenges.length === 0} build={rates} height={chartHeight} />
        <ChartCard title={t("stats_admin.distribution")} empty={distribution.length === 0} build={teams} />
        <ChartCard title={t("stats_admin.users_chart")} empty={stats.users.all === 0} build={users} />
      </SimpleGrid>
      <Title order={2} size="h4">
        {t("stats_admin.per_challenge")}
      </Title>
      {perChallenge.isPending ? null : challenges.length === 0 ? (
        <Text c="dimmed">{t("stats_admin.no_challenges")}</Text>
      ) : (
        <StackedTable minWidth={480}>
          <Table striped verticalSpacing="xs" data-testid="stats-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("stats_admin.challenge")}</Table.Th>
                <Table.Th ta="right">{t("stats_admin.correct")}</Table.Th>
                <Table.Th ta="right">{t("stats_admin.incorrect")}</Table.Th>
                <Table.Th ta="right">{t("stats_admin.solve_rate")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {challenges.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td data-label={t("stats_admin.challenge")}>{c.name}</Table.Td>
                  <Table.Td ta="right" data-label={t("stats_admin.correct")}>{c.correct}</Table.Td>
                  <Table.Td ta="right" data-label={t("stats_admin.incorrect")}>{c.incorrect}</Table.Td>
                  <Table.Td ta="right" data-label={t("stats_admin.solve_rate")}>{c.rate.toFixed(2)}%</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </StackedTable>
      )}
    </Stack>
  );
}
