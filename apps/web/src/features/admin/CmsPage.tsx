import { Anchor, Badge, Button, Card, Code, Group, List, Stack, Switch, Table, Text, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "../auth/errors.ts";
import { defaultHome, HomeContent } from "../pages/HomeContent.tsx";
import { HOME_BLOCKS, HOME_FIELDS } from "../pages/home-template.ts";
import { AdminPage, EmptyState, QueryState } from "./AdminPage.tsx";
import { ConfirmButton } from "./ConfirmButton.tsx";
import { MarkdownField } from "./MarkdownField.tsx";
import "./texts.ts";

interface PageRow {
  id: number;
  url: string;
  title: string;
  content: string;
  inNav: boolean;
}

/** The home page is the page at this address. */
const HOME_URL = "/";
const isHome = (page: PageRow) => page.url.replace(/^\/+|\/+$/g, "") === "";

/** /admin/cms: the site's content pages (home, rules, privacy...), served at the URL staff give them. */
export function CmsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.pages.list.queryOptions());
  // null: no editor; "new": a new page; "home": writing the home page; a row: editing it.
  const [editing, setEditing] = useState<PageRow | "new" | "home" | null>(null);
  const home = list.data?.find(isHome) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.pages.list.queryKey() });
  const placeInNav = useMutation(
    trpc.pages.update.mutationOptions({
      onSuccess: async (page) => {
        notifications.show({ color: "green", message: t(page.inNav ? "cms.in_nav_on" : "cms.in_nav_off", { title: page.title }) });
        await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: trpc.pages.nav.queryKey() })]);
      },
      onError: async (error) => {
        notifications.show({ color: "red", message: `${t("cms.in_nav_failed")}: ${errorText(error)}` });
        await refresh();
      },
    }),
  );
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
      {editing === null && list.data && (
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="cms-home" data-testid="cms-home">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Stack gap={4} maw={640}>
              <Group gap="xs">
                <Title order={2} size="h4" id="cms-home">
                  {t("cms.home")}
                </Title>
                <Badge variant="light" color={home ? "green" : "gray"}>
                  {home ? t("cms.home_status_written") : t("cms.home_status_default")}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {home ? t("cms.home_written") : t("cms.home_default")}
              </Text>
            </Stack>
            <Button variant={home ? "light" : "filled"} onClick={() => setEditing(home ?? "home")}>
              {home ? t("cms.home_edit") : t("cms.home_write")}
            </Button>
          </Group>
        </Card>
      )}
      {editing !== null && (
        <PageEditor
          key={editing === "new" || editing === "home" ? editing : editing.id}
          page={editing === "new" || editing === "home" ? null : editing}
          home={editing === "home" || (typeof editing === "object" && isHome(editing))}
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
                    <Table.Th>{t("cms.in_nav")}</Table.Th>
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
                        {isHome(p) && (
                          <Badge variant="light" ml="xs">
                            {t("cms.home_row")}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{p.title}</Table.Td>
                      <Table.Td>
                        {/* The home page has its own entry in the navigation. */}
                        {!isHome(p) && (
                          <Switch
                            checked={p.inNav}
                            disabled={placeInNav.isPending}
                            onChange={(event) => placeInNav.mutate({ id: p.id, data: { inNav: event.currentTarget.checked } })}
                            aria-label={t("cms.in_nav_named", { title: p.title })}
                            data-testid="page-in-nav"
                          />
                        )}
                      </Table.Td>
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

function PageEditor({ page, home, onDone }: { page: PageRow | null; home: boolean; onDone: () => unknown }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const trpc = useTRPC();
  const { config } = useAppData();
  // The home page's preview draws its blocks with the event's real categories.
  const homeData = useQuery(trpc.pages.home.queryOptions(undefined, { enabled: home }));
  const required = (v: string) => (v.trim() ? null : t("generic.required"));
  const server = useServerForm({
    initialValues: home
      ? { url: HOME_URL, title: page?.title ?? t("cms.home_title"), content: page?.content ?? defaultHome(t, config ?? {}) }
      : { url: page?.url ?? "", title: page?.title ?? "", content: page?.content ?? "" },
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
            {home ? t("cms.home") : page ? t("cms.edit_title", { title: page.title }) : t("cms.new")}
          </Title>
          {!home && <TextInput label={t("cms.url")} description={t("cms.url_help")} placeholder="/rules" required {...server.form.getInputProps("url")} />}
          <TextInput label={t("cms.title")} required maxLength={200} {...server.form.getInputProps("title")} />
          {home && <HomeHelp />}
          <MarkdownField
            label={t("cms.content")}
            required
            {...server.form.getInputProps("content")}
            value={server.form.values.content}
            renderPreview={home ? (content) => <HomeContent content={content} event={config ?? {}} categories={homeData.data?.categories ?? []} /> : undefined}
          />
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

/** What the home page's placeholders draw, beside its editor. */
function HomeHelp() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="sm" bg="var(--mantine-color-default-hover)" data-testid="home-help">
      <Text size="sm" fw={600}>
        {t("cms.home_help_title")}
      </Text>
      <Text size="sm">{t("cms.home_help")}</Text>
      <List size="sm" spacing={2} mb="xs">
        {HOME_FIELDS.map((name) => (
          <List.Item key={name}>
            <Code>{`{{${name}}}`}</Code>: {t(`cms.home_fields.${name}`)}
          </List.Item>
        ))}
      </List>
      <Text size="sm">{t("cms.home_blocks_help")}</Text>
      <List size="sm" spacing={2}>
        {HOME_BLOCKS.map((name) => (
          <List.Item key={name}>
            <Code>{`{{${name}}}`}</Code>: {t(`cms.home_blocks.${name}`)}
          </List.Item>
        ))}
      </List>
    </Card>
  );
}
