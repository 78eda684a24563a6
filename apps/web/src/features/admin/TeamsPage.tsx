import { Alert, Badge, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title, UnstyledButton } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useRevealOnOpen } from "./SearchResults.tsx";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { AdminPage, QueryState } from "./AdminPage.tsx";
import { ConfirmButton } from "./ConfirmButton.tsx";
import { changedFields, useEditorAction } from "./editor-actions.ts";
import { SEARCH_LIMIT, SearchBox, SearchResults, useAdminSearch } from "./SearchResults.tsx";
import type { AdminTeam } from "./types.ts";
import "./texts.ts";

/** /admin/teams: find a team by name, edit it, hand it to another member or remove members. */
export function TeamsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  const { search, setSearch, term } = useAdminSearch();
  const [selected, setSelected] = useState<number | null>(null);
  const enabled = config?.enable_teams !== false;
  const results = useQuery(trpc.teams.list.queryOptions({ search: term || undefined, limit: SEARCH_LIMIT }, { enabled }));

  if (!enabled) {
    return (
      <AdminPage title={t("admin.teams")}>
        <Alert color="yellow" data-testid="teams-disabled">
          {t("teams_admin.disabled")}
        </Alert>
      </AdminPage>
    );
  }
  return (
    <AdminPage title={t("admin.teams")} intro={t("teams_admin.intro")}>
      <SearchBox label={t("teams_admin.search")} value={search} onChange={setSearch} />
      <SearchResults
        query={results}
        selected={selected}
        onOpen={(team) => setSelected(team.id)}
        label={(team) => team.name}
        columns={[
          { header: t("teams_admin.name"), cell: (team) => team.name },
          { header: t("teams_admin.members"), cell: (team) => team.members },
          { header: t("teams_admin.points"), cell: (team) => team.leaderboard_points },
          {
            header: t("teams_admin.visibility"),
            cell: (team) =>
              team.is_visible === false ? (
                <Badge size="sm" variant="light" color="gray">
                  {t("members_admin.hidden")}
                </Badge>
              ) : (
                t("teams_admin.visible")
              ),
          },
        ]}
      />
      {selected !== null && <TeamEditor key={selected} id={selected} onClose={() => setSelected(null)} />}
    </AdminPage>
  );
}

function TeamEditor({ id, onClose }: { id: number; onClose: () => void }) {
  const scrollHere = useRevealOnOpen<HTMLDivElement>();
  const trpc = useTRPC();
  const team = useQuery(trpc.teams.get.queryOptions({ id }));
  return (
    <Card ref={scrollHere} withBorder radius="md" padding="lg" component="section" aria-labelledby="team-editor-title" data-testid="team-editor">
      <QueryState query={team}>{(data) => <TeamForm key={JSON.stringify(data)} team={data} onClose={onClose} />}</QueryState>
    </Card>
  );
}

function TeamForm({ team, onClose }: { team: AdminTeam; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.teams.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() });
  };
  const initial = { name: team.name, description: team.description, password: team.password ?? "", is_visible: team.is_visible };
  const server = useServerForm({
    initialValues: initial,
    submit: (values) => client.teams.staffUpdate.mutate({ id: team.id, patch: changedFields(initial, values) }),
    success: t("teams_admin.modified"),
    onSuccess: refresh,
  });
  const transfer = useEditorAction((owner: number) => client.teams.staffUpdate.mutate({ id: team.id, patch: { owner } }), (updated) => t("teams_admin.transferred", { team: updated.name }), refresh);
  const unteam = useEditorAction((user: number) => client.users.staffUpdate.mutate({ id: user, patch: { team: null } }), () => t("members_admin.removed_from_team"), refresh);
  const remove = useEditorAction(
    () => client.teams.staffDelete.mutate({ id: team.id }),
    () => t("teams_admin.deleted"),
    async () => {
      onClose();
      await refresh();
    },
  );
  const [confirmOwner, setConfirmOwner] = useState<{ id: number; username: string } | null>(null);
  const { form } = server;

  return (
    <ServerFormBox server={server}>
      <Stack>
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h3" id="team-editor-title">
              {team.name}
            </Title>
            <Text size="sm" c="dimmed">
              {t("teams_admin.summary", { id: team.id, points: team.points, leaderboard: team.leaderboard_points, solves: team.solves.length })}
            </Text>
          </div>
          <ConfirmButton
            variant="light"
            title={t("teams_admin.delete_title", { team: team.name })}
            body={t("teams_admin.delete_body")}
            confirm={t("teams_admin.delete")}
            onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            loading={remove.isPending}
          >
            {t("teams_admin.delete")}
          </ConfirmButton>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t("teams_admin.name")} maxLength={36} {...form.getInputProps("name")} />
          <PasswordInput label={t("teams_admin.secret")} {...form.getInputProps("password")} />
        </SimpleGrid>
        <Textarea label={t("teams_admin.description")} autosize minRows={2} {...form.getInputProps("description")} />
        <Switch label={t("teams_admin.is_visible")} {...form.getInputProps("is_visible", { type: "checkbox" })} />

        <div>
          <Text fw={600} size="sm">
            {t("teams_admin.members")}
          </Text>
          <Text size="xs" c="dimmed" mb="xs">
            {t("teams_admin.members_help")}
          </Text>
          {team.members.length === 0 && (
            <Text size="sm" c="dimmed">
              {t("teams_admin.no_members")}
            </Text>
          )}
          <Stack gap={6}>
            {team.members.map((m) => (
              <Group key={m.id} justify="space-between" wrap="nowrap" data-testid="team-member">
                {m.id === team.owner ? (
                  <Group gap={6}>
                    <Text size="sm">{m.username}</Text>
                    <Badge size="sm" variant="light">{t("teams_admin.owner")}</Badge>
                  </Group>
                ) : (
                  <UnstyledButton onClick={() => setConfirmOwner(m)} c="var(--mantine-color-anchor)" fz="sm" aria-label={t("teams_admin.make_owner_named", { username: m.username })}>
                    {m.username}
                  </UnstyledButton>
                )}
                <ConfirmButton
                  size="xs"
                  variant="subtle"
                  color="orange"
                  title={t("members_admin.unteam_title", { username: m.username, team: team.name })}
                  confirm={t("members_admin.unteam")}
                  onConfirm={() => unteam.mutateAsync(m.id).catch(() => undefined)}
                  loading={unteam.isPending}
                  aria-label={t("teams_admin.remove_named", { username: m.username })}
                >
                  {t("members_admin.unteam")}
                </ConfirmButton>
              </Group>
            ))}
          </Stack>
        </div>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("admin_ui.close")}
          </Button>
          <Button type="submit" loading={server.pending} disabled={!form.isDirty()}>
            {t("teams_admin.save")}
          </Button>
        </Group>
      </Stack>
      <OwnerConfirm
        member={confirmOwner}
        team={team.name}
        loading={transfer.isPending}
        onCancel={() => setConfirmOwner(null)}
        onConfirm={async (id) => {
          await transfer.mutateAsync(id).catch(() => undefined);
          setConfirmOwner(null);
        }}
      />
    </ServerFormBox>
  );
}

function OwnerConfirm({
  member,
  team,
  loading,
  onCancel,
  onConfirm,
}: {
  member: { id: number; username: string } | null;
  team: string;
  loading: boolean;
  onCancel: () => void;
  onConfirm: (id: number) => unknown;
}) {
  const { t } = useTranslation();
  return (
    <Dialog opened={member !== null} onClose={onCancel} title={t("teams_admin.transfer_title", { username: member?.username ?? "", team })} centered>
      <Stack>
        <Text size="sm">{t("teams_admin.transfer_body")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("admin_ui.cancel")}
          </Button>
          <Button loading={loading} onClick={() => member && void onConfirm(member.id)}>
            {t("teams_admin.transfer")}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
