import { Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { Markdown } from "../../lib/Markdown.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { errorText } from "../auth/errors.ts";
import { AdminPage, EmptyState, QueryState } from "./AdminPage.tsx";
import { ConfirmButton } from "./ConfirmButton.tsx";
import { MarkdownField } from "./MarkdownField.tsx";
import "./texts.ts";

/** /admin/announcements: post to every player (live popup and the list), or remove. */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.announcements.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.announcements.list.queryKey() });
  const server = useServerForm({
    initialValues: { title: "", body: "" },
    validate: { title: (v) => (v.trim() ? null : t("generic.required")), body: (v) => (v.trim() ? null : t("generic.required")) },
    submit: (values) => client.announcements.create.mutate(values),
    success: t("announcements_admin.posted"),
    onSuccess: async () => {
      server.form.reset();
      await refresh();
    },
  });
  const remove = useMutation(
    trpc.announcements.remove.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("announcements_admin.removed") });
        await refresh();
      },
      onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
    }),
  );

  return (
    <AdminPage title={t("admin.announcements")} intro={t("announcements_admin.intro")}>
      <Card withBorder radius="md" padding="lg">
        <ServerFormBox server={server}>
          <Stack>
            <Title order={2} size="h4">
              {t("announcements_admin.new")}
            </Title>
            <TextInput label={t("announcements_admin.title")} required maxLength={200} {...server.form.getInputProps("title")} />
            <MarkdownField label={t("announcements_admin.body")} required minRows={4} {...server.form.getInputProps("body")} value={server.form.values.body} />
            <Group justify="flex-end">
              <Button type="submit" loading={server.pending}>
                {t("announcements_admin.post")}
              </Button>
            </Group>
          </Stack>
        </ServerFormBox>
      </Card>
      <Title order={2} size="h4">
        {t("announcements_admin.posted_list")}
      </Title>
      <QueryState query={list}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState>{t("announcements_admin.empty")}</EmptyState>
          ) : (
            <Stack gap="sm">
              {items.map((a) => (
                <Card key={a.id} withBorder radius="md" data-testid="admin-announcement">
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                      <Text fw={600}>{a.title}</Text>
                      <Text size="xs" c="dimmed">
                        {new Date(a.timestamp).toLocaleString()}
                      </Text>
                      <Markdown>{a.body}</Markdown>
                    </Stack>
                    <ConfirmButton
                      size="xs"
                      variant="light"
                      style={{ flexShrink: 0 }}
                      title={t("announcements_admin.remove_title", { title: a.title })}
                      confirm={t("announcements_admin.remove")}
                      loading={remove.isPending}
                      onConfirm={() => remove.mutateAsync({ id: a.id }).catch(() => undefined)}
                      aria-label={t("announcements_admin.remove_named", { title: a.title })}
                    >
                      {t("announcements_admin.remove")}
                    </ConfirmButton>
                  </Group>
                </Card>
              ))}
            </Stack>
          )
        }
      </QueryState>
    </AdminPage>
  );
}
