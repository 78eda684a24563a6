import { type JobState, spellOut } from "@flagship/shared";
import { Alert, Anchor, Badge, Button, Card, Code, Group, List, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { errorText } from "../auth/errors.ts";
import { isFull } from "../challenges/types.ts";
import { ConfirmModal } from "./InstancePanel.tsx";
import { JobForm } from "./JobForm.tsx";
import { TierOverviewCard } from "./TierOverviewCard.tsx";
import type { JobStatusView, LiveWorker } from "./types.ts";
import "./texts.ts";

const STATE_COLOURS: Record<JobState, string> = { running: "green", deploying: "blue", degraded: "orange", failed: "red" };
const REFRESH_MS = 3000;

/** /admin/jobs (staff): every challenge-server job, its replicas' health, workers, redeploy and remove. */
export function JobsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const jobs = useQuery({ ...trpc.challengeServers.jobs.queryOptions(), refetchInterval: REFRESH_MS });
  const workers = useQuery({ ...trpc.challengeServers.workers.queryOptions(), refetchInterval: REFRESH_MS });
  const overview = useQuery({ ...trpc.challengeServers.overview.queryOptions(), refetchInterval: REFRESH_MS });
  const categories = useQuery(trpc.challenges.categories.queryOptions());
  const [adding, setAdding] = useState(false);
  const challengeOptions = useMemo(
    () =>
      (categories.data ?? []).flatMap((category) =>
        category.challenges.filter(isFull).map((c) => ({ value: String(c.id), label: `${category.name} / ${c.name}` })),
      ),
    [categories.data],
  );

  if (jobs.isPending) return <LoadingScreen />;
  if (jobs.isError) {
    return (
      <Alert color="red" role="alert" m="md">
        {errorText(jobs.error)}
      </Alert>
    );
  }
  return (
    <Stack maw={1100} mx="auto" py="md" gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>{t("cserv.jobs_title")}</Title>
          <Text c="dimmed" maw={640}>
            {t("cserv.jobs_intro")}
          </Text>
        </Stack>
        <Button onClick={() => setAdding(true)}>{t("cserv.add_job")}</Button>
      </Group>

      {overview.data && <TierOverviewCard overview={overview.data} />}

      <Card withBorder padding="sm" component="section" aria-labelledby="workers-heading">
        <Title order={2} size="h5" id="workers-heading" mb="xs">
          {t("cserv.workers")}
        </Title>
        {workers.data && workers.data.length === 0 ? (
          <Alert color="orange" variant="light">
            {t("cserv.workers_none")}
          </Alert>
        ) : (
          <List size="sm" spacing={4}>
            {(workers.data ?? []).map((w) => (
              <WorkerLine key={w.id} worker={w} />
            ))}
          </List>
        )}
      </Card>

      {jobs.data.length === 0 ? (
        <Text c="dimmed">{t("cserv.jobs_empty")}</Text>
      ) : (
        <Stack gap="md">
          {jobs.data.map((job) => (
            <JobCard key={job.id} job={job} />
          ))}
        </Stack>
      )}

      <Dialog opened={adding} onClose={() => setAdding(false)} title={t("cserv.form_title")} size="lg" closeLabel={t("cserv.close")}>
        <JobForm challenges={challengeOptions} onDone={() => setAdding(false)} />
      </Dialog>
    </Stack>
  );
}

/** One worker: where it runs, its load, whether it is drained or has lost its engine, and Drain. */
function WorkerLine({ worker }: { worker: LiveWorker }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const drain = useMutation(
    trpc.challengeServers.drainWorker.mutationOptions({
      onSuccess: (result) => {
        notifications.show({ color: "green", message: t("cserv.drain_started", { id: result.id, count: result.instances }) });
        void queryClient.invalidateQueries({ queryKey: trpc.challengeServers.workers.queryKey() });
      },
      onError: (error) => notifications.show({ color: "red", message: t("cserv.action_failed", { reason: errorText(error) }) }),
    }),
  );
  return (
    <List.Item>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" component="span">
          {t("cserv.worker_line", { id: worker.id, backend: worker.backend, address: worker.address, load: worker.load, capacity: worker.capacity })}
        </Text>
        {worker.engine_lost && (
          <Badge color="red" variant="light">
            {t("cserv.worker_engine_lost")}
          </Badge>
        )}
        {worker.draining ? (
          <Badge color="orange" variant="light">
            {worker.load === 0 ? t("cserv.worker_drained") : t("cserv.worker_draining", { count: worker.load })}
          </Badge>
        ) : (
          <Button size="compact-xs" variant="light" color="orange" loading={drain.isPending} onClick={() => setConfirming(true)} aria-label={t("cserv.drain_label", { id: worker.id })}>
            {t("cserv.drain")}
          </Button>
        )}
      </Group>
      <ConfirmModal
        opened={confirming}
        title={t("cserv.drain_title", { id: worker.id })}
        body={t("cserv.drain_body")}
        confirm={t("cserv.drain")}
        onConfirm={() => {
          setConfirming(false);
          drain.mutate({ id: worker.id });
        }}
        onCancel={() => setConfirming(false)}
      />
    </List.Item>
  );
}

function JobCard({ job }: { job: JobStatusView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.challengeServers.jobs.queryKey() });
  const failed = (error: unknown) => notifications.show({ color: "red", message: t("cserv.action_failed", { reason: errorText(error) }) });
  const redeploy = useMutation(
    trpc.challengeServers.redeploy.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: t("cserv.redeployed", { name: job.name }) });
        void refresh();
      },
      onError: failed,
    }),
  );
  const remove = useMutation(
    trpc.challengeServers.remove.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: t("cserv.removed", { name: job.name }) });
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
      },
      onError: failed,
    }),
  );
  const current = job.instances.filter((i) => i.current);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-labelledby={`job-${job.id}`} data-testid="job-card">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Group gap="xs">
              <Title order={2} size="h4" id={`job-${job.id}`}>
                {job.name}
              </Title>
              <Badge color={STATE_COLOURS[job.state]} variant="light" data-testid="job-state">
                {t(`cserv.state_${job.state}`)}
              </Badge>
            </Group>
            <Text size="sm">
              {t("cserv.column_challenge")}:{" "}
              <Anchor component={Link} to="/campaign" size="sm" underline="always">
                {job.challenge_name}
              </Anchor>{" "}
              · <Code>{job.image}</Code>
            </Text>
          </Stack>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              {t("cserv.edit_job")}
            </Button>
            <Button size="xs" variant="default" loading={redeploy.isPending} onClick={() => redeploy.mutate({ id: job.id })}>
              {t("cserv.redeploy")}
            </Button>
            <Button size="xs" color="red" variant="light" loading={remove.isPending} onClick={() => setRemoving(true)}>
              {t("cserv.remove")}
            </Button>
          </Group>
        </Group>
        <Group gap="lg" wrap="wrap">
          <Text size="sm">{job.dedicated ? t("cserv.mode_dedicated", { lifetime: job.lifetime }) : t("cserv.mode_shared", { count: job.replicas })}</Text>
          <Text size="sm" data-testid="job-health">
            {t("cserv.healthy", { healthy: job.healthy, total: job.total })}
          </Text>
          <Text size="sm">{t("cserv.teams_pinned", { count: job.teams_pinned })}</Text>
          {job.dedicated && job.warm > 0 && (
            <Text size="sm" data-testid="job-warm">
              {t("cserv.warm_ready", { ready: job.warm_ready, size: job.warm })}
            </Text>
          )}
        </Group>
        {job.last_error && (
          <Alert color="red" variant="light" title={t("cserv.last_error")}>
            <Text size="sm" style={{ wordBreak: "break-word" }}>
              {job.last_error}
            </Text>
          </Alert>
        )}
        {current.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table striped withTableBorder fz="sm" aria-label={t("cserv.instances")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("cserv.instances")}</Table.Th>
                  <Table.Th>{t("cserv.workers")}</Table.Th>
                  <Table.Th>{t("cserv.address")}</Table.Th>
                  <Table.Th>{t("cserv.column_state")}</Table.Th>
                  <Table.Th>{t("cserv.column_teams")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {current.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td>{i.team_id !== null ? t("cserv.instance_team", { team: i.team_name ?? `#${i.team_id}` }) : i.pooled ? t("cserv.instance_warm") : t("cserv.instance_slot", { slot: (i.slot ?? 0) + 1 })}</Table.Td>
                    <Table.Td>{i.worker}</Table.Td>
                    <Table.Td>{i.port !== null ? `${i.host}:${i.port}` : "—"}</Table.Td>
                    <Table.Td>{t(`cserv.status_${i.status}`, { defaultValue: spellOut(i.status) })}</Table.Td>
                    <Table.Td>{i.teams}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Dialog opened={editing} onClose={() => setEditing(false)} title={t("cserv.form_title")} size="lg" closeLabel={t("cserv.close")}>
        <JobForm job={job} onDone={() => setEditing(false)} />
      </Dialog>
      <ConfirmModal
        opened={removing}
        title={t("cserv.remove_title", { name: job.name })}
        body={t("cserv.remove_body")}
        confirm={t("cserv.remove")}
        onCancel={() => setRemoving(false)}
        onConfirm={() => {
          setRemoving(false);
          remove.mutate({ id: job.id });
        }}
      />
    </Card>
  );
}
