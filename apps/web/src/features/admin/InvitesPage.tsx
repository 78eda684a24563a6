import { Badge, Button, Card, Code, CopyButton, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Table, TextInput, Title } from "@mantine/core";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPCClient } from "../../lib/trpc.ts";
import { AdminPage, EmptyState, QueryState } from "./AdminPage.tsx";
import { StackedTable } from "./StackedTable.tsx";
import { type PickedTeam, TeamPicker } from "./TeamPicker.tsx";
import "./texts.ts";

/** The spec's list page sizes and quick amounts; a generated list above this many codes opens full height. */
const PAGE_SIZES = ["10", "100", "500", "1000"];
const QUICK_AMOUNTS = [1, 10, 100];
const FULL_VIEW_ABOVE = 20;

type UsedFilter = "all" | "usable" | "used";

/** /admin/invites: generate codes (with max uses and an auto-join team) and page through them. */
export function InvitesPage() {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [generated, setGenerated] = useState<string[]>([]);
  const [limit, setLimit] = useState("100");
  const [filter, setFilter] = useState<UsedFilter>("all");

  const fullyUsed = filter === "all" ? undefined : filter === "used";
  const list = useInfiniteQuery({
    queryKey: ["admin", "invites", limit, filter],
    queryFn: ({ pageParam }) => client.auth.invites.query({ limit: Number(limit), offset: pageParam, fully_used: fullyUsed }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.offset + last.results.length < last.count && last.results.length > 0 ? last.offset + last.results.length : undefined),
  });

  const server = useServerForm({
    initialValues: { amount: "", max_uses: 1 as number | string, auto_team: null as PickedTeam | null },
    validate: {
      amount: (v) => (/^\d+$/.test(v.trim()) && Number(v) > 0 ? null : t("invites.number_required")),
    },
    submit: (values) =>
      client.auth.generateInvites.mutate({
        amount: Number(values.amount),
        max_uses: Number(values.max_uses) || 1,
        auto_team: values.auto_team?.id ?? null,
      }),
    success: (result) => t("invites.generated_toast", { count: result.invite_codes.length }),
    onSuccess: async (result) => {
      setGenerated(result.invite_codes);
      await queryClient.invalidateQueries({ queryKey: ["admin", "invites"] });
    },
  });
  const generate = (amount: number) => server.submitWith({ amount: String(amount) });

  const codes = generated.join("\n");
  const rows = list.data?.pages.flatMap((p) => p.results) ?? [];
  const total = list.data?.pages[0]?.count ?? 0;

  return (
    <AdminPage title={t("admin.invites")} intro={t("invites.intro")}>
      <Card withBorder radius="md" padding="lg">
        <ServerFormBox server={server}>
          <Stack>
            <Title order={2} size="h4">
              {t("invites.generate")}
            </Title>
            <Group gap="xs">
              {QUICK_AMOUNTS.map((n) => (
                <Button key={n} variant="light" onClick={() => generate(n)} loading={server.pending && server.form.values.amount === String(n)}>
                  {t("invites.generate_n", { count: n })}
                </Button>
              ))}
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label={t("invites.amount")} inputMode="numeric" {...server.form.getInputProps("amount")} />
              <NumberInput label={t("invites.max_uses")} min={1} allowDecimal={false} {...server.form.getInputProps("max_uses")} />
              <TeamPicker
                label={t("invites.auto_team")}
                description={t("invites.auto_team_help")}
                // The help under the input, so the three inputs line up under their labels.
                descriptionBelow
                value={server.form.values.auto_team}
                onChange={(team) => server.form.setFieldValue("auto_team", team)}
                error={server.form.errors.auto_team as string | undefined}
                testId="invite-team"
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={server.pending}>
                {t("invites.generate")}
              </Button>
            </Group>
          </Stack>
        </ServerFormBox>
      </Card>

      {generated.length > 0 && (
        <Card withBorder radius="md" padding="lg" data-testid="generated-invites">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              {t("invites.generated", { count: generated.length })}
            </Title>
            <CopyButton value={codes}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? t("generic.copied") : t("invites.copy_all")}
                </Button>
              )}
            </CopyButton>
          </Group>
          {generated.length > FULL_VIEW_ABOVE ? (
            // Above 20 codes: every code in one full-height block, to copy or print.
            <Code block data-testid="all-invites">
              {codes}
            </Code>
          ) : (
            <Stack gap={4}>
              {generated.map((code) => (
                <Group key={code} gap="xs" wrap="nowrap">
                  <Code ff="monospace">{code}</Code>
                  <CopyButton value={code}>
                    {({ copied, copy }) => (
                      <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={t("invites.copy_code", { code })}>
                        {copied ? t("generic.copied") : t("generic.copy")}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              ))}
            </Stack>
          )}
        </Card>
      )}

      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4">
          {t("invites.list", { count: total })}
        </Title>
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            aria-label={t("invites.filter")}
            value={filter}
            onChange={(v) => setFilter(v as UsedFilter)}
            data={[
              { value: "all", label: t("invites.all") },
              { value: "usable", label: t("invites.usable") },
              { value: "used", label: t("invites.fully_used") },
            ]}
          />
          <Select label={t("invites.page_size")} data={PAGE_SIZES} value={limit} onChange={(v) => v && setLimit(v)} w={110} allowDeselect={false} />
        </Group>
      </Group>
      <QueryState query={{ ...list, data: list.data }}>
        {() =>
          rows.length === 0 ? (
            <EmptyState>{t("invites.empty")}</EmptyState>
          ) : (
            <Stack>
              <StackedTable minWidth={480}>
                <Table striped verticalSpacing="xs" data-testid="invite-list">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("invites.code")}</Table.Th>
                      <Table.Th ta="right">{t("invites.uses")}</Table.Th>
                      <Table.Th ta="right">{t("invites.auto_team")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((invite) => (
                      <Table.Tr key={invite.id}>
                        <Table.Td ff="monospace" data-label={t("invites.code")}>{invite.code}</Table.Td>
                        <Table.Td ta="right" data-label={t("invites.uses")}>
                          <Badge variant="light" color={invite.uses >= invite.max_uses ? "gray" : "green"}>
                            {invite.uses} / {invite.max_uses}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right" data-label={t("invites.auto_team")}>{invite.auto_team_name ?? "—"}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </StackedTable>
              {list.hasNextPage && (
                <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} w="fit-content" mx="auto">
                  {t("admin_ui.load_more")}
                </Button>
              )}
            </Stack>
          )
        }
      </QueryState>
    </AdminPage>
  );
}
