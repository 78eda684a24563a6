import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Tabs, Text, Title } from "@mantine/core";
import { graphSpan, parseProfileParam } from "@flagship/shared";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { RedirectTo } from "./guards.tsx";
import dayjs from "dayjs";
import { useCallback, useContext } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { NotFoundPage } from "../../shell/NotFound.tsx";
import { SomethingWentWrong } from "../../shell/ErrorScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { FreezeNotice } from "../moments/FreezeNotice.tsx";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { NameAvatar } from "../profiles/Avatar.tsx";
import { ChartCard, ChartsFailed } from "../profiles/ChartCard.tsx";
import { attemptsPie, categoryBars, memberPie, scoreLine } from "../profiles/chartOptions.ts";
import { SocialLinks } from "../profiles/SocialLinks.tsx";
import { errorText } from "./forms.ts";
import { TeamSettingsCards } from "./TeamSettingsCards.tsx";
import { deferred } from "../../lib/deferred.tsx";
import type { TeamData } from "./types.ts";
import { ServerRenderClock } from "../../lib/render-clock.ts";
import { ReadersTime } from "../../lib/ReadersTime.tsx";

export function StatTile({ label, value }: { label: string; value: number | string }) {
  return (
    <Card withBorder padding="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} ff="monospace">
        {value}
      </Text>
    </Card>
  );
}

/** /team/{team}: members, solves and charts; 'me' is the caller's own team, else a team's id or name. */
// Awards load after the page (the staff form with them): most teams have none to show.
const Awards = deferred("features/moderation/Awards", () => import("../moderation/Awards.tsx").then((m) => m.Awards), null);

export function TeamPage() {
  const { team: param } = useParams({ from: "/team/$team" });
  const ref = parseProfileParam(param);
  const trpc = useTRPC();
  const { me } = useAppData();
  const staffView = useStaffView();
  const self = useQuery(trpc.teams.self.queryOptions(undefined, { enabled: ref === "me" }));
  const other = useQuery(trpc.teams.get.queryOptions({ id: typeof ref === "number" ? ref : 0 }, { enabled: typeof ref === "number" }));
  const named = useQuery(trpc.teams.byName.queryOptions({ name: typeof ref === "object" && ref !== null ? ref.name : "" }, { enabled: typeof ref === "object" && ref !== null }));
  if (ref === null) return <NotFoundPage />;
  const query = ref === "me" ? self : typeof ref === "number" ? other : named;
  if (query.isPending) return <Skeleton h={360} maw={1100} mx="auto" />;
  if (query.isError) {
    if (errorCode(query.error) === "not_found") return <NotFoundPage />;
    return <SomethingWentWrong message={errorText(query.error)} />;
  }
  if (!query.data) return staffView ? <StaffWithoutTeam /> : <RedirectTo path="/welcome" />;
  return <TeamView team={query.data} ownId={me?.id ?? null} own={me?.teamId === query.data.id} />;
}

/** /team for staff without a team: where teams are managed, rather than the players' onboarding. */
function StaffWithoutTeam() {
  const { t } = useTranslation();
  return (
    <Stack maw={720} mx="auto" gap="lg" py="sm">
      <Title order={1}>{t("nav.team")}</Title>
      <Card withBorder padding="lg" radius="md" data-testid="staff-no-team">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t("teams.staff_title")}
          </Title>
          <Text c="dimmed">{t("teams.staff_body")}</Text>
          <Group gap="sm" mt="xs">
            <Button component={Link} to="/admin/teams">
              {t("teams.staff_manage")}
            </Button>
            <Button component={Link} to="/teams" variant="light">
              {t("teams.staff_browse")}
            </Button>
            <Button component={Link} to="/team/create" variant="subtle">
              {t("teams.create_title")}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}

function TeamView({ team, ownId, own }: { team: TeamData; ownId: number | null; own: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const stats = useQuery(trpc.teams.stats.queryOptions({ id: team.id }));
  const labels = { correct: t("teams.correct"), incorrect: t("teams.incorrect") };
  const s = stats.data;
  const pie = useCallback((scheme: "light" | "dark") => attemptsPie(s?.correct ?? 0, s?.incorrect ?? 0, labels, scheme), [s, labels.correct]); // eslint-disable-line react-hooks/exhaustive-deps
  const bars = useCallback((scheme: "light" | "dark") => categoryBars(s?.categories ?? [], { solved: t("teams.solved"), unsolved: t("teams.unsolved") }, scheme), [s, t]);
  const { config } = useAppData();
  const startTime = config?.start_time ?? null;
  const endTime = config?.end_time ?? null;
  // Up to now; on the server, the page's moment (the same in each of its draws, so the server
  // draws the chart once: lib/echarts/server-draw.ts).
  const serverClock = useContext(ServerRenderClock);
  const line = useCallback(
    (scheme: "light" | "dark") => {
      const score = s?.score ?? [];
      return scoreLine(score, team.name, scheme, graphSpan(score.map((p) => Date.parse(p.timestamp)), startTime, endTime, serverClock ? serverClock.now : Date.now()));
    },
    [s, team.name, startTime, endTime, serverClock],
  );
  const shares = useCallback((scheme: "light" | "dark") => memberPie(s?.members ?? [], scheme), [s]);
  const staffView = useStaffView();

  return (
    <Stack maw={1100} mx="auto" gap="lg" py="sm">
      <FreezeNotice staffView={staffView} />
      <Card withBorder padding="lg" radius="md">
        <Group align="flex-start" gap="lg">
          <NameAvatar name={team.name} size={72} />
          <Stack gap={6} style={{ minWidth: 0, flex: "1 1 240px" }}>
            <Group gap="xs">
              <Title order={1} size="h2" style={{ overflowWrap: "anywhere" }}>
                {team.name}
              </Title>
              {!team.is_visible && (
                <Badge color="gray" variant="outline">
                  {t("teams.hidden")}
                </Badge>
              )}
            </Group>
            <Text c={team.description ? undefined : "dimmed"} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {team.description || t("teams.no_description")}
            </Text>
            <Text size="sm" c="dimmed">
              <ReadersTime>{() => t("teams.created_on", { date: dayjs(team.date_created).format("D MMM YYYY") })}</ReadersTime>
            </Text>
            <SocialLinks socials={team} />
          </Stack>
        </Group>
      </Card>

      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <StatTile label={t("teams.points")} value={team.points} />
        <StatTile label={t("teams.members")} value={team.members.length} />
        <StatTile label={t("teams.solves")} value={team.solves.length} />
        <StatTile label={t("teams.incorrect")} value={team.incorrect_solves} />
      </SimpleGrid>

      <Awards owner={{ team: team.id }} />
      <Tabs defaultValue="members" keepMounted={false} variant="outline" radius="md" loop activateTabWithKeyboard>
        <Tabs.List>
          <Tabs.Tab value="members">{t("teams.members")}</Tabs.Tab>
          <Tabs.Tab value="solves">{t("teams.solves")}</Tabs.Tab>
          <Tabs.Tab value="stats">{t("teams.stats")}</Tabs.Tab>
          {own && <Tabs.Tab value="manage">{t("teams.manage")}</Tabs.Tab>}
        </Tabs.List>

        <Tabs.Panel value="members" pt="md">
          <Card withBorder padding={0} radius="md">
            <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t("teams.members")}>
              <Table.Tbody>
                {team.members.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <NameAvatar name={m.username} size={32} />
                        <Anchor component={Link} to={`/profile/${m.id}`} fw={500}>
                          {m.username}
                        </Anchor>
                        {m.id === team.owner && (
                          <Badge size="sm" variant="light" color="yellow">
                            {t("teams.captain")}
                          </Badge>
                        )}
                        {m.id === ownId && (
                          <Badge size="sm" variant="light">
                            {t("teams.you")}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {s?.members.find((x) => x.id === m.id)?.points ?? ""}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </Tabs.Panel>

        <Tabs.Panel value="solves" pt="md">
          <Card withBorder padding={0} radius="md">
            {team.solves.length === 0 ? (
              <Text c="dimmed" p="lg" ta="center">
                {t("teams.no_solves")}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={480}>
                <Table verticalSpacing="sm" horizontalSpacing="md" striped aria-label={t("teams.solves")}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("teams.challenge")}</Table.Th>
                      <Table.Th>{t("teams.solved_by")}</Table.Th>
                      <Table.Th ta="right">{t("teams.points")}</Table.Th>
                      <Table.Th ta="right">{t("teams.time")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {team.solves.map((solve) => (
                      <Table.Tr key={solve.id}>
                        <Table.Td>
                          {solve.challenge_name}
                          {solve.first_blood && (
                            <Badge ml="xs" size="xs" color="red" variant="light">
                              {t("teams.first_blood")}
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Anchor component={Link} to={`/profile/${solve.solved_by}`}>
                            {solve.solved_by_name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {solve.points}
                        </Table.Td>
                        <Table.Td ta="right" c="dimmed">
                          <ReadersTime>{() => dayjs(solve.timestamp).format("D MMM HH:mm")}</ReadersTime>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>
        </Tabs.Panel>

        <Tabs.Panel value="stats" pt="md">
          {stats.isError ? (
            <ChartsFailed onRetry={() => void stats.refetch()} />
          ) : !s ? (
            <Skeleton h={280} />
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <ChartCard title={t("teams.attempts")} empty={s.correct + s.incorrect === 0} build={pie} testId="team-attempts-chart" />
              <ChartCard title={t("teams.member_points")} empty={s.members.every((m) => m.points === 0)} build={shares} />
              <ChartCard title={t("teams.category_progress")} empty={s.categories.length === 0} build={bars} testId="team-category-chart" />
              <ChartCard title={t("teams.score_over_time")} empty={s.score.length === 0} build={line} testId="team-score-chart" />
            </SimpleGrid>
          )}
        </Tabs.Panel>
        {own && (
          <Tabs.Panel value="manage" pt="md">
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <TeamSettingsCards />
            </SimpleGrid>
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
