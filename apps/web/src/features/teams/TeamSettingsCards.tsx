import { Alert, Badge, Button, Card, Group, PasswordInput, Stack, Text, Textarea, TextInput, Title, UnstyledButton } from "@mantine/core";
import { LIMITS, TEAM_DESCRIPTION_MAX } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { SomethingWentWrong } from "../../shell/ErrorScreen.tsx";
import { NameAvatar } from "../profiles/Avatar.tsx";
import { errorText, serverFieldErrors } from "./forms.ts";
import "./teams.css";
import "./texts.ts";

type OwnTeam = NonNullable<ReturnType<typeof useOwnTeam>["data"]>;

function useOwnTeam() {
  const trpc = useTRPC();
  return useQuery(trpc.teams.self.queryOptions());
}

/** The settings page's team and members cards (teams on only). */
export function TeamSettingsCards() {
  return (
    <>
      <TeamSettingsCard />
      <TeamMembersSettingsCard />
    </>
  );
}

/** The settings team card: the team form, or the way into a team for a player without one. */
export function TeamSettingsCard() {
  const { config } = useAppData();
  const team = useOwnTeam();
  if (config?.enable_teams === false || team.isPending) return null;
  // "No team" is an answer; a failed load is not, and must not offer to create one.
  if (team.isError) return <SomethingWentWrong message={errorText(team.error)} />;
  if (!team.data) return <NoTeamCard />;
  return <TeamCard team={team.data} />;
}

/** The settings members card; nothing without a team. */
export function TeamMembersSettingsCard() {
  const { config } = useAppData();
  const team = useOwnTeam();
  if (config?.enable_teams === false || !team.data) return null;
  return <MembersCard team={team.data} />;
}

function NoTeamCard() {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" radius="md" data-testid="team-card">
      <Title order={2} size="h4">
        {t("teams.settings_title")}
      </Title>
      <Text c="dimmed" size="sm" mt={4} mb="md">
        {t("teams.no_team")}
      </Text>
      <Group>
        <Button component={Link} to="/team/create">
          {t("teams.create_title")}
        </Button>
        <Button component={Link} to="/team/join" variant="default">
          {t("teams.join_title")}
        </Button>
      </Group>
    </Card>
  );
}

/** Name, description and secret; only the captain may save, everyone else sees the form locked. */
function TeamCard({ team }: { team: OwnTeam }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me, config } = useAppData();
  const isOwner = me?.id === team.owner;
  const [name, setName] = useState(team.name);
  const [description, setDescription] = useState(team.description);
  const [secret, setSecret] = useState(team.password ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    setName(team.name);
    setDescription(team.description);
    setSecret(team.password ?? "");
  }, [team]);

  const save = useMutation(
    trpc.teams.updateSelf.mutationOptions({
      onSuccess: async () => {
        setErrors({});
        notifications.show({ color: "green", message: t("teams.saved") });
        await queryClient.invalidateQueries({ queryKey: trpc.teams.pathKey() });
      },
      onError: (error) => setErrors(serverFieldErrors(error)),
    }),
  );
  const leave = useMutation(
    trpc.teams.leave.mutationOptions({
      onSuccess: async () => {
        setLeaving(false);
        notifications.show({ message: t("teams.left") });
        await queryClient.invalidateQueries();
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = t("teams.name_missing");
    if (secret.length < LIMITS.teamSecretMin) found.password = t("teams.secret_short");
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate({ name: name.trim(), description, password: secret });
  };
  const saveError = save.isError && Object.keys(serverFieldErrors(save.error)).length === 0 ? errorText(save.error) : null;
  const lastMember = team.members.length <= 1;

  return (
    <Card withBorder padding="lg" radius="md" data-testid="team-card">
      <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {t("teams.settings_title")}
          </Title>
          <Text size="sm" c="dimmed">
            {isOwner ? t("teams.settings_intro") : t("teams.settings_locked")}
          </Text>
        </Stack>
        {saveError && (
          <Alert color="red" role="alert">
            {saveError}
          </Alert>
        )}
        <fieldset disabled={!isOwner} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            <TextInput
              label={t("teams.name")}
              value={name}
              onChange={(e) => setName(e.currentTarget.value.slice(0, LIMITS.teamName))}
              maxLength={LIMITS.teamName}
              error={errors.name}
              rightSectionWidth={64}
              rightSection={
                <Text size="xs" c="dimmed" aria-hidden>
                  {name.length}/{LIMITS.teamName}
                </Text>
              }
            />
            <Textarea
              label={t("teams.description")}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value.slice(0, TEAM_DESCRIPTION_MAX))}
              maxLength={TEAM_DESCRIPTION_MAX}
              placeholder={t("teams.description_placeholder")}
              autosize
              minRows={2}
              maxRows={6}
              error={errors.description}
            />
            <PasswordInput label={t("teams.secret")} description={t("teams.secret_hint")} value={secret} onChange={(e) => setSecret(e.currentTarget.value)} error={errors.password} />
          </Stack>
        </fieldset>
        <Group justify="space-between">
          {config?.enable_team_leave ? (
            <Button variant="subtle" color="red" onClick={() => setLeaving(true)}>
              {t("teams.leave")}
            </Button>
          ) : (
            <span />
          )}
          {isOwner && (
            <Button type="submit" loading={save.isPending}>
              {t("teams.save")}
            </Button>
          )}
        </Group>
      </Stack>
      </form>
      <Dialog opened={leaving} onClose={() => setLeaving(false)} title={t("teams.leave_confirm_title")} centered>
        <Stack>
          <Text>{t(lastMember ? "teams.leave_confirm_last" : "teams.leave_confirm", { team: team.name })}</Text>
          {leave.isError && (
            <Alert color="red" role="alert">
              {errorText(leave.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setLeaving(false)}>
              {t("teams.cancel")}
            </Button>
            <Button color="red" loading={leave.isPending} onClick={() => leave.mutate()}>
              {t("teams.leave")}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Card>
  );
}

/** The team's members; the captain clicks one and confirms to hand the team over. */
function MembersCard({ team }: { team: OwnTeam }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me } = useAppData();
  const isOwner = me?.id === team.owner;
  const [target, setTarget] = useState<{ id: number; username: string } | null>(null);
  const transfer = useMutation(
    trpc.teams.updateSelf.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("teams.transferred", { username: target?.username }) });
        setTarget(null);
        await queryClient.invalidateQueries({ queryKey: trpc.teams.pathKey() });
      },
    }),
  );

  return (
    <Card withBorder padding="lg" radius="md" data-testid="members-card">
      <Title order={2} size="h4">
        {t("teams.members_title")}
      </Title>
      {isOwner && team.members.length > 1 && (
        <Text size="sm" c="dimmed" mt={4}>
          {t("teams.transfer_hint")}
        </Text>
      )}
      <Stack gap={4} mt="md">
        {team.members.map((member) => {
          const canTransfer = isOwner && member.id !== team.owner;
          const row = (
            <Group gap="sm" wrap="nowrap" p="xs">
              <NameAvatar name={member.username} size={32} />
              <Text fw={500} style={{ flex: 1, overflowWrap: "anywhere" }}>
                {member.username}
              </Text>
              {member.id === team.owner && (
                <Badge size="sm" variant="light" color="yellow">
                  {t("teams.captain")}
                </Badge>
              )}
            </Group>
          );
          return canTransfer ? (
            <UnstyledButton key={member.id} onClick={() => setTarget(member)} className="fs-member-row" aria-label={`${t("teams.transfer")}: ${member.username}`}>
              {row}
            </UnstyledButton>
          ) : (
            <div key={member.id}>{row}</div>
          );
        })}
      </Stack>
      <Dialog opened={target !== null} onClose={() => setTarget(null)} title={t("teams.transfer_title")} centered>
        <Stack>
          <Text>{t("teams.transfer_confirm", { username: target?.username, team: team.name })}</Text>
          {transfer.isError && (
            <Alert color="red" role="alert">
              {errorText(transfer.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setTarget(null)}>
              {t("teams.cancel")}
            </Button>
            <Button loading={transfer.isPending} onClick={() => target && transfer.mutate({ owner: target.id })}>
              {t("teams.transfer")}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Card>
  );
}
