import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { graphSpan, parseProfileParam } from "@flagship/shared";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import dayjs from "dayjs";
import { useCallback, useContext } from "react";
import { deferred } from "../../lib/deferred.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { ImpersonateButton } from "../auth/ImpersonateButton.tsx";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { SomethingWentWrong } from "../../shell/ErrorScreen.tsx";
import { NotFoundPage } from "../../shell/NotFound.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { FreezeNotice } from "../moments/FreezeNotice.tsx";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { errorText } from "../teams/forms.ts";
import { StatTile } from "../teams/TeamPage.tsx";
import type { MemberData } from "../teams/types.ts";
import { NameAvatar } from "./Avatar.tsx";
import { ChartCard, ChartsFailed } from "./ChartCard.tsx";
import { attemptsPie, categoryPie, scoreLine } from "./chartOptions.ts";
import { SocialLinks } from "./SocialLinks.tsx";
import { ServerRenderClock } from "../../lib/render-clock.ts";
import { ReadersTime } from "../../lib/ReadersTime.tsx";

// Awards load after the page (the staff form with them): most players have none to show.
const Awards = deferred("features/moderation/Awards", () => import("../moderation/Awards.tsx").then((m) => m.Awards), null);

/** /profile/{user}: 'me' is the signed-in player; otherwise a member's id or username. */
export function ProfilePage() {
  const { user: param } = useParams({ from: "/profile/$user" });
  const ref = parseProfileParam(param);
  const trpc = useTRPC();
  const byName = ref !== null && typeof ref === "object";
  const byId = useQuery(trpc.users.get.queryOptions({ id: ref === "me" || typeof ref === "number" ? ref : 0 }, { enabled: ref !== null && !byName }));
  const named = useQuery(trpc.users.byName.queryOptions({ username: byName ? ref.name : "" }, { enabled: byName }));
  const profile = byName ? named : byId;
  if (ref === null) return <NotFoundPage />;
  if (profile.isPending) return <Skeleton h={360} maw={1100} mx="auto" />;
  if (profile.isError) {
    if (errorCode(profile.error) === "not_found") return <NotFoundPage />;
    return <SomethingWentWrong message={errorText(profile.error)} />;
  }
  return <ProfileView user={profile.data} />;
}

function Badges({ user }: { user: MemberData }) {
  const { t } = useTranslation();
  return (
    <Group gap={6}>
      {user.is_staff && (
        <Badge color="red" variant="filled">
          {t("profiles.badge_admin")}
        </Badge>
      )}
      {user.is_verified && (
        <Badge color="blue" variant="filled">
          {t("profiles.badge_staff")}
        </Badge>
      )}
      {user.state_actor && (
        <Badge color="grape" variant="filled">
          {t("profiles.badge_state_actor")}
        </Badge>
      )}
    </Group>
  );
}

function ProfileView({ user }: { user: MemberData }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  const stats = useQuery(trpc.users.stats.queryOptions({ id: user.id }));
  const s = stats.data;
  const correct = t("profiles.correct");
  const incorrect = t("profiles.incorrect");
  const pie = useCallback((scheme: "light" | "dark") => attemptsPie(s?.correct ?? 0, s?.incorrect ?? 0, { correct, incorrect }, scheme), [s, correct, incorrect]);
  const categories = useCallback((scheme: "light" | "dark") => categoryPie(s?.categories ?? [], scheme), [s]);
  // The leaderboard's time axis: the event from its start to now (or its end).
  const startTime = config?.start_time ?? null;
  const endTime = config?.end_time ?? null;
  // Up to now; on the server, the page's moment (the same in each of its draws, so the server
  // draws the chart once: lib/echarts/server-draw.ts).
  const serverClock = useContext(ServerRenderClock);
  const line = useCallback(
    (scheme: "light" | "dark") => {
      const score = s?.score ?? [];
      return scoreLine(score, user.username, scheme, graphSpan(score.map((p) => Date.parse(p.timestamp)), startTime, endTime, serverClock ? serverClock.now : Date.now()));
    },
    [s, user.username, startTime, endTime, serverClock],
  );
  const teams = config?.enable_teams !== false;
  const staffView = useStaffView();

  return (
    <Stack maw={1100} mx="auto" gap="lg" py="sm">
      <FreezeNotice staffView={staffView} />
      <Card withBorder padding="lg" radius="md">
        <Group align="flex-start" gap="lg">
          <NameAvatar name={user.username} size={88} />
          <Stack gap={6} style={{ minWidth: 0, flex: "1 1 240px" }}>
            <Group gap="sm" align="center">
              <Title order={1} size="h2" style={{ overflowWrap: "anywhere" }}>
                {user.username}
              </Title>
              <Badges user={user} />
              <ImpersonateButton user={user} />
            </Group>
            <Group gap="md">
              <Text size="sm" c="dimmed">
                <ReadersTime>{() => t("profiles.joined", { date: dayjs(user.date_joined).format("D MMM YYYY") })}</ReadersTime>
              </Text>
              {teams && user.team !== null && (
                <Anchor component={Link} to={`/team/${user.team}`} size="sm" fw={500}>
                  {user.team_name}
                </Anchor>
              )}
            </Group>
            <Text c={user.bio ? undefined : "dimmed"} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {user.bio || t("profiles.no_bio")}
            </Text>
            <SocialLinks socials={user} />
          </Stack>
        </Group>
      </Card>

      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        <StatTile label={t("profiles.points")} value={user.points} />
        <StatTile label={t("profiles.solves")} value={user.solves.length} />
        <StatTile label={t("profiles.incorrect")} value={user.incorrect_solves} />
      </SimpleGrid>

      <Awards owner={{ user: user.id }} />

      {stats.isError ? (
        <ChartsFailed onRetry={() => void stats.refetch()} />
      ) : !s ? (
        <Skeleton h={280} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <ChartCard title={t("profiles.attempts")} empty={s.correct + s.incorrect === 0} build={pie} testId="profile-attempts-chart" />
          <ChartCard title={t("profiles.categories")} empty={s.categories.every((c) => c.points === 0)} build={categories} testId="profile-category-chart" />
        </SimpleGrid>
      )}
      {s && <ChartCard title={t("profiles.score_over_time")} empty={s.score.length === 0} build={line} height={300} testId="profile-score-chart" />}

      <Card withBorder padding={0} radius="md">
        <Title order={2} size="h5" p="md" pb={0}>
          {t("profiles.solves")}
        </Title>
        {user.solves.length === 0 ? (
          <Text c="dimmed" p="lg" ta="center">
            {t("profiles.no_solves")}
          </Text>
        ) : (
          // Fits a phone: the challenge's name wraps, the time stays on one line; the box scrolls
          // only under 300px.
          <Table.ScrollContainer minWidth={300}>
            <Table verticalSpacing="sm" horizontalSpacing="md" striped aria-label={t("profiles.solves")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("profiles.challenge")}</Table.Th>
                  <Table.Th ta="right">{t("profiles.points")}</Table.Th>
                  <Table.Th ta="right" style={{ whiteSpace: "nowrap" }}>{t("profiles.time")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {user.solves.map((solve) => (
                  <Table.Tr key={solve.id}>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{solve.challenge_name}</Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {solve.points}
                    </Table.Td>
                    <Table.Td ta="right" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                      <ReadersTime>{() => dayjs(solve.timestamp).format("D MMM YYYY HH:mm")}</ReadersTime>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
