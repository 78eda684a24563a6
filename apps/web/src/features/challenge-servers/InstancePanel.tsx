import { Alert, Anchor, Button, Card, Code, CopyButton, Group, Loader, Stack, Text, Title, Tooltip } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import type { ChallengeView } from "../challenges/types.ts";
import { deferred } from "../../lib/deferred.tsx";
import "./texts.ts";

function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

/**
 * The challenge view's challenge-server card: the team's instance (address, the extra lines,
 * reset with confirmation) for a challenge whose metadata names a job, and for staff the job adder.
 */
export function InstancePanel({ challenge }: { challenge: ChallengeView }) {
  const { t } = useTranslation();
  const { me } = useAppData();
  const cservName = typeof challenge.challenge_metadata.cserv_name === "string" ? challenge.challenge_metadata.cserv_name : null;
  const [editing, setEditing] = useState(false);
  if (!cservName && !me?.isStaff) return null;
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby={`cserv-${challenge.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h5" id={`cserv-${challenge.id}`}>
            {t("cserv.panel_title")}
          </Title>
          {me?.isStaff && (
            <Group gap="xs">
              {cservName && (
                <Anchor component={Link} to="/admin/jobs" size="sm">
                  {t("cserv.job", { name: cservName })}
                </Anchor>
              )}
              <Button size="xs" variant="light" onClick={() => setEditing(true)}>
                {cservName ? t("cserv.edit_job") : t("cserv.add_job")}
              </Button>
            </Group>
          )}
        </Group>
        {cservName && (me?.teamId !== null || me?.isStaff) && <Instance name={cservName} />}
      </Stack>
      {me?.isStaff && (
        <Dialog opened={editing} onClose={() => setEditing(false)} title={t("cserv.form_title")} size="lg" closeLabel={t("cserv.close")}>
          <StaffJobForm challengeId={challenge.id} name={cservName} onDone={() => setEditing(false)} />
        </Dialog>
      )}
    </Card>
  );
}

// The job form is staff-only: it loads when a staff member opens it.
const JobForm = deferred("features/challenge-servers/JobForm", () => import("./JobForm.tsx").then((m) => m.JobForm));

function StaffJobForm({ challengeId, name, onDone }: { challengeId: number; name: string | null; onDone: () => void }) {
  const trpc = useTRPC();
  const jobs = useQuery({ ...trpc.challengeServers.jobs.queryOptions(), enabled: name !== null });
  if (name !== null && jobs.isPending) return <Loader size="sm" />;
  const job = jobs.data?.find((j) => j.challenge_id === challengeId);
  return <JobForm challengeId={challengeId} {...(job && { job })} onDone={onDone} />;
}

function Instance({ name }: { name: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = trpc.challengeServers.instance.queryOptions({ name }, { retry: false, staleTime: 60_000 });
  const instance = useQuery(options);
  const [confirming, setConfirming] = useState(false);
  const reset = useMutation(
    trpc.challengeServers.reset.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(options.queryKey, data);
        notifications.show({ color: "green", message: t("cserv.reset_done") });
      },
      onError: (error) => notifications.show({ color: "red", message: t("cserv.request_failed", { reason: reasonOf(error) }) }),
    }),
  );

  if (instance.isPending || reset.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">{t("cserv.starting")}</Text>
      </Group>
    );
  }
  if (instance.isError) {
    // No worker runs (or the tier is off): not a failure of the player's, a server not there yet.
    const unavailable = errorCode(instance.error) === "challenge_server_disabled";
    return (
      <Alert color={unavailable ? "gray" : "red"} variant="light" role={unavailable ? "status" : "alert"} data-testid={unavailable ? "instance-unavailable" : undefined}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{unavailable ? t("cserv.not_available") : t("cserv.request_failed", { reason: reasonOf(instance.error) })}</Text>
          <Button size="xs" variant="default" onClick={() => void instance.refetch()}>
            {t("cserv.retry")}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const address = `${instance.data.ip}:${instance.data.port}`;
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {t("cserv.address")}
        </Text>
        <Code fz="md" data-testid="instance-address">
          {address}
        </Code>
        <CopyButton value={address}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t("generic.copied") : t("cserv.copy_address")}>
              <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={t("cserv.copy_address")}>
                {copied ? t("generic.copied") : t("generic.copy")}
              </Button>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {instance.data.extra.map((line) => (
        <Code key={line} block>
          {line}
        </Code>
      ))}
      <Group>
        <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
          {t("cserv.reset")}
        </Button>
      </Group>
      <ConfirmModal
        opened={confirming}
        title={t("cserv.reset_title")}
        body={t("cserv.reset_body")}
        confirm={t("cserv.reset_confirm")}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          reset.mutate({ name });
        }}
      />
    </Stack>
  );
}

/** A yes/no question in a dialog; focus returns to the button that opened it. */
export function ConfirmModal(props: { opened: boolean; title: string; body: string; confirm: string; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog opened={props.opened} onClose={props.onCancel} title={props.title} centered closeLabel={t("cserv.close")}>
      <Stack>
        <Text size="sm">{props.body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t("cserv.cancel")}
          </Button>
          {/* red.9: white text on the default red is below 4.5:1. */}
          <Button color="red.9" onClick={props.onConfirm}>
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
