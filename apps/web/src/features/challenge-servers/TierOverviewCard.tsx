import { Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import type { TierOverview } from "./types.ts";

/**
 * The tier at a glance, above the workers and jobs: whether workers take instances, engines
 * answer, instances are healthy and the queue keeps up. Numbers that need staff's attention
 * (none taking instances, an engine lost, failed instances, a queue that waits) are drawn in red.
 */
export function TierOverviewCard({ overview }: { overview: TierOverview }) {
  const { t } = useTranslation();
  const { workers, engines, instances, queue } = overview;
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="tier-overview-heading" data-testid="tier-overview">
      <Title order={2} size="h5" id="tier-overview-heading" mb="xs">
        {t("cserv.overview_title")}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        <Figures
          title={t("cserv.overview_workers")}
          testId="overview-workers"
          lines={[
            { text: t("cserv.overview_placeable", { placeable: workers.placeable, live: workers.live }), alarm: workers.placeable === 0 },
            { text: t("cserv.overview_draining", { count: workers.draining }), hidden: workers.draining === 0 },
            { text: t("cserv.overview_parked", { count: workers.parked }), hidden: workers.parked === 0 },
            { text: t("cserv.overview_heartbeat", { seconds: workers.stalest_heartbeat_seconds }), hidden: workers.stalest_heartbeat_seconds === null },
          ]}
        />
        <Figures
          title={t("cserv.overview_engines")}
          testId="overview-engines"
          lines={[
            { text: t("cserv.overview_engines_total", { count: engines.total }) },
            { text: t("cserv.overview_engines_lost", { count: engines.unreachable }), alarm: engines.unreachable > 0, hidden: engines.unreachable === 0 },
          ]}
        />
        <Figures
          title={t("cserv.instances")}
          testId="overview-instances"
          lines={[
            { text: t("cserv.overview_healthy", { count: instances.healthy }) },
            { text: t("cserv.overview_starting", { count: instances.pending + instances.unhealthy }), hidden: instances.pending + instances.unhealthy === 0 },
            { text: t("cserv.overview_failed", { count: instances.failed }), alarm: true, hidden: instances.failed === 0 },
            { text: t("cserv.overview_orphaned", { count: instances.orphaned }), hidden: instances.orphaned === 0 },
            { text: t("cserv.overview_load", { load: workers.load, capacity: workers.capacity }) },
            { text: t("cserv.teams_pinned", { count: instances.teams_pinned }) },
          ]}
        />
        <Figures
          title={t("cserv.overview_queue")}
          testId="overview-queue"
          lines={
            queue === null
              ? [{ text: t("cserv.overview_queue_unknown"), alarm: true }]
              : [
                  { text: t("cserv.overview_queue_waiting", { count: queue.waiting }) },
                  { text: t("cserv.overview_queue_oldest", { seconds: queue.oldest_waiting_seconds }), alarm: (queue.oldest_waiting_seconds ?? 0) >= 30, hidden: queue.oldest_waiting_seconds === null },
                  { text: t("cserv.overview_queue_active", { count: queue.active }) },
                  { text: t("cserv.overview_queue_failed", { count: queue.failed }), hidden: queue.failed === 0 },
                ]
          }
        />
      </SimpleGrid>
    </Card>
  );
}

function Figures({ title, lines, testId }: { title: string; testId: string; lines: { text: string; alarm?: boolean; hidden?: boolean }[] }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Title order={3} size="h6">
        {title}
      </Title>
      {lines
        .filter((line) => !line.hidden)
        .map((line) => (
          <Text key={line.text} size="sm" c={line.alarm ? "red" : undefined} fw={line.alarm ? 600 : undefined}>
            {line.text}
          </Text>
        ))}
    </Stack>
  );
}
