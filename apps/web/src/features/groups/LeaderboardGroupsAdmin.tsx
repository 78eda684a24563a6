import { Alert, Button, Card, Group, Skeleton, Stack, Switch, Table, Text, Textarea, TextInput, Title } from "@mantine/core";
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { errorText, serverFieldErrors } from "../teams/forms.ts";
import "./texts.ts";

export interface LeaderboardGroup {
  id: number;
  name: string;
  description: string;
  is_self_assignable: boolean;
  has_own_leaderboard: boolean;
}

type Draft = Omit<LeaderboardGroup, "id">;

const EMPTY: Draft = { name: "", description: "", is_self_assignable: true, has_own_leaderboard: true };

/** The create/edit dialog: one form for both, the server's field errors under their fields. */
function GroupForm({ editing, onClose }: { editing: LeaderboardGroup | "new"; onClose: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(editing === "new" ? EMPTY : editing);
  const done = async (message: string) => {
    notifications.show({ color: "green", message });
    await queryClient.invalidateQueries();
    onClose();
  };
  const create = useMutation(trpc.teams.groups.create.mutationOptions({ onSuccess: () => done(t("groups.created")) }));
  const update = useMutation(trpc.teams.groups.update.mutationOptions({ onSuccess: () => done(t("groups.saved")) }));
  const mutation = editing === "new" ? create : update;
  const errors = mutation.isError ? serverFieldErrors(mutation.error) : {};
  const formError = mutation.isError && Object.keys(errors).length === 0 ? errorText(mutation.error) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (editing === "new") create.mutate(draft);
    else update.mutate({ id: editing.id, patch: draft });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <TextInput
          label={t("groups.name")}
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          maxLength={GROUP_NAME_MAX}
          error={errors.name}
          required
          data-autofocus
        />
        <Textarea
          label={t("groups.description")}
          value={draft.description}
          onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
          maxLength={GROUP_DESCRIPTION_MAX}
          error={errors.description}
          autosize
          minRows={2}
        />
        <Switch label={t("groups.self_assignable")} checked={draft.is_self_assignable} onChange={(e) => setDraft({ ...draft, is_self_assignable: e.currentTarget.checked })} />
        <Switch label={t("groups.own_leaderboard")} checked={draft.has_own_leaderboard} onChange={(e) => setDraft({ ...draft, has_own_leaderboard: e.currentTarget.checked })} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("groups.cancel")}
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {t("groups.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Staff management of leaderboard groups (divisions): list, add, edit, delete. Self-contained so the
 * admin console can link it from its menu.
 */
export function LeaderboardGroupsAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.teams.groups.list.queryOptions());
  const [editing, setEditing] = useState<LeaderboardGroup | "new" | null>(null);
  const [deleting, setDeleting] = useState<LeaderboardGroup | null>(null);
  const remove = useMutation(
    trpc.teams.groups.delete.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("groups.deleted") });
        setDeleting(null);
        await queryClient.invalidateQueries();
      },
      onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
    }),
  );

  let body;
  if (groups.isPending) body = <Skeleton h={160} />;
  else if (groups.isError)
    body = (
      <Alert color="red" title={t("groups.load_failed")}>
        <Button size="xs" variant="white" color="red" onClick={() => void groups.refetch()}>
          {t("generic.retry")}
        </Button>
      </Alert>
    );
  else if (groups.data.results.length === 0) body = <Text>{t("groups.empty")}</Text>;
  else
    body = (
      <Table.ScrollContainer minWidth={560}>
        <Table striped aria-label={t("groups.admin_title")}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("groups.name")}</Table.Th>
              <Table.Th>{t("groups.self_assignable")}</Table.Th>
              <Table.Th>{t("groups.own_leaderboard")}</Table.Th>
              <Table.Th>{t("groups.actions")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.data.results.map((group) => (
              <Table.Tr key={group.id}>
                <Table.Td>
                  <Text fw={600}>{group.name}</Text>
                  {group.description && (
                    <Text size="sm">
                      {group.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{t(group.is_self_assignable ? "groups.yes" : "groups.no")}</Table.Td>
                <Table.Td>{t(group.has_own_leaderboard ? "groups.yes" : "groups.no")}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => setEditing(group)} aria-label={t("groups.edit", { name: group.name })}>
                      {t("groups.edit_title")}
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => setDeleting(group)} aria-label={t("groups.delete", { name: group.name })}>
                      {t("groups.delete_action")}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack maw={960} mx="auto" gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t("groups.admin_title")}</Title>
          <Text size="sm" mt={4}>
            {t("groups.admin_intro")}
          </Text>
        </div>
        <Button onClick={() => setEditing("new")}>{t("groups.add")}</Button>
      </Group>
      <Card withBorder padding="md">
        {body}
      </Card>
      <Dialog opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === "new" ? "groups.add_title" : "groups.edit_title")} centered closeLabel={t("groups.cancel")}>
        {editing !== null && <GroupForm key={editing === "new" ? "new" : editing.id} editing={editing} onClose={() => setEditing(null)} />}
      </Dialog>
      <Dialog opened={deleting !== null} onClose={() => setDeleting(null)} title={t("groups.delete_title")} centered closeLabel={t("groups.cancel")}>
        <Stack gap="md">
          <Text>{t("groups.delete_confirm", { name: deleting?.name ?? "" })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t("groups.cancel")}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate({ id: deleting.id })}>
              {t("groups.delete_action")}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Stack>
  );
}
