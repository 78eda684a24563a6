import { Anchor, Button, Card, Group, Stack, Table, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { errorText } from "../auth/errors.ts";
import { AdminPage, EmptyState, QueryState } from "./AdminPage.tsx";
import { ConfirmButton } from "./ConfirmButton.tsx";
import { MarkdownField } from "./MarkdownField.tsx";
import "./texts.ts";

interface PageRow {
  id: number;
  url: string;
  title: string;
  content: string;
}

/** /admin/cms: the site's content pages (rules, privacy...), served at the URL staff give them. */
export function CmsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.pages.list.queryOptions());
  // null: no editor; "new": a new page; a row: editing it.
  const [editing, setEditing] = useState<PageRow | "new" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.pages.list.queryKey() });
  const remove = useMutation(
    trpc.pages.remove.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("cms.removed") });
        await refresh();
      },
      onError: async (error) => {
        notifications.show({ color: "red", message: `${t("cms.remove_failed")}: ${errorText(error)}` });
        await refresh();
      },
    }),
  );

  return (
    <AdminPage
      title={t("admin.cms")}
      intro={t("cms.intro")}
      actions={
        editing === null && (
          <Button onClick={() => setEditing("new")} data-testid="new-page">
            {t("cms.new")}
          </Button>
        )
      }
    >
      {editing !== null && (
        <PageEditor
          key={editing === "new" ? "new" : editing.id}
          page={editing === "new" ? null : editing}
          onDone={async () => {
            setEditing(null);
            await refresh();
          }}
        />
      )}
      <QueryState query={list}>
        {(pages) =>
          pages.length === 0 ? (
            <EmptyState>{t("cms.empty")}</EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={520}>
              <Table striped highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("cms.url")}</Table.Th>
                    <Table.Th>{t("cms.title")}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t("admin_ui.actions")}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {pages.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td>
                        <Anchor href={`/${p.url.replace(/^\/+/, "")}`} ff="monospace">
                          /{p.url.replace(/^\/+/, "")}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{p.title}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="xs" variant="light" onClick={() => setEditing(p)} aria-label={t("cms.edit_named", { title: p.title })}>
                            {t("cms.edit")}
                          </Button>
                          <ConfirmButton
                            size="xs"
                            variant="light"
                            title={t("cms.remove_title", { title: p.title })}
                            confirm={t("cms.remove")}
                            loading={remove.isPending}
                            onConfirm={() => remove.mutateAsync({ id: p.id }).catch(() => undefined)}
                            aria-label={t("cms.remove_named", { title: p.title })}
                          >
                            {t("cms.remove")}
                          </ConfirmButton>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </AdminPage>
  );
}

function PageEditor({ page, onDone }: { page: PageRow | null; onDone: () => unknown }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const required = (v: string) => (v.trim() ? null : t("generic.required"));
  const server = useServerForm({
    initialValues: { url: page?.url ?? "", title: page?.title ?? "", content: page?.content ?? "" },
    validate: { url: required, title: required, content: required },
    submit: (values) => (page ? client.pages.update.mutate({ id: page.id, data: values }) : client.pages.create.mutate(values)),
    success: page ? t("cms.saved") : t("cms.created"),
    onSuccess: onDone,
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <ServerFormBox server={server}>
        <Stack>
          <Title order={2} size="h4">
            {page ? t("cms.edit_title", { title: page.title }) : t("cms.new")}
          </Title>
          <TextInput label={t("cms.url")} description={t("cms.url_help")} placeholder="/rules" required {...server.form.getInputProps("url")} />
          <TextInput label={t("cms.title")} required maxLength={200} {...server.form.getInputProps("title")} />
          <MarkdownField label={t("cms.content")} required {...server.form.getInputProps("content")} value={server.form.values.content} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void onDone()}>
              {t("admin_ui.cancel")}
            </Button>
            <Button type="submit" loading={server.pending}>
              {t("cms.save")}
            </Button>
          </Group>
        </Stack>
      </ServerFormBox>
    </Card>
  );
}
