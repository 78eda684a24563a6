import { Badge, Button, Group, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, EmptyState, QueryState } from "./AdminPage.tsx";
import { settingLabel } from "./setting-label.ts";
import { StackedTable } from "./StackedTable.tsx";
import type { AuditEntry } from "./types.ts";
import "./texts.ts";

const PAGE = 50;

/** What an entry acted on, read from its extra: a config key, a user, a team or a record id. */
export function auditTarget(extra: unknown): string {
  if (!extra || typeof extra !== "object") return "";
  const e = extra as Record<string, unknown>;
  if (typeof e.key === "string") return e.key;
  if (typeof e.target_username === "string") return e.target_username;
  if (e.user !== undefined && e.user !== null) return `user ${String(e.user)}`;
  if (e.team !== undefined && e.team !== null) return `team ${String(e.team)}`;
  if (typeof e.url === "string") return `/${e.url}`;
  if (typeof e.title === "string") return e.title;
  if (e.id !== undefined) return `#${String(e.id)}`;
  return "";
}

/** An entry's target; a setting by the name the config editor gives it, its key below in monospace. */
function Target({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const target = auditTarget(entry.extra);
  // Only config writes: other entries' keys (an uploaded file's storage key) are not settings.
  const label = entry.action === "set_config" ? settingLabel(t, target) : undefined;
  if (!label) return <>{target}</>;
  return (
    <Stack gap={2} align="flex-start" title={target} data-testid="audit-setting">
      <Text size="sm">{label}</Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {target}
      </Text>
    </Stack>
  );
}

/** An action's readable name ('set_config' is 'Changed a setting'); an unnamed one spelled out ('Rename team'). */
export function actionLabel(t: (key: string, options?: { defaultValue?: string }) => string, action: string): string {
  const spelled = action.replace(/_/g, " ");
  return t(`audit.actions.${action}`, { defaultValue: spelled.charAt(0).toUpperCase() + spelled.slice(1) });
}

// Numbers in this range are read as Unix times (seconds 2000-2100, or the same in milliseconds).
const SECONDS = [946_684_800, 4_102_444_800] as const;

/** One value of an entry's details, readable: a Unix time as a date, lists and objects as short JSON. */
function detailValue(value: unknown): string {
  if (typeof value === "number") {
    if (value >= SECONDS[0] && value < SECONDS[1]) return new Date(value * 1000).toLocaleString();
    if (value >= SECONDS[0] * 1000 && value < SECONDS[1] * 1000) return new Date(value).toLocaleString();
    return String(value);
  }
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value === "" ? '""' : value;
  if (typeof value === "boolean") return value ? "true" : "false";
  return JSON.stringify(value);
}

/** An entry's details as "key: value" lines; the raw JSON stays in the tooltip. */
function Details({ extra }: { extra: unknown }) {
  if (!extra || typeof extra !== "object" || Array.isArray(extra)) return <Text size="xs">{detailValue(extra)}</Text>;
  const entries = Object.entries(extra as Record<string, unknown>);
  if (entries.length === 0) return <Text size="xs">—</Text>;
  return (
    <Stack gap={0} title={JSON.stringify(extra)} data-testid="audit-details">
      {entries.map(([key, value]) => (
        <Text key={key} size="xs" style={{ overflowWrap: "anywhere" }}>
          <Text span size="xs" c="dimmed">
            {key}:
          </Text>{" "}
          {detailValue(value)}
        </Text>
      ))}
    </Stack>
  );
}

/** /admin/audit_log: every staff write, newest first, filtered by action and actor. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [action, setAction] = useState<string | null>(null);
  const [actorText, setActorText] = useState("");
  const [actor] = useDebouncedValue(actorText.trim(), 250);
  const log = useInfiniteQuery(
    trpc.admin.auditLogPage.infiniteQueryOptions(
      { limit: PAGE, action: action ?? undefined, actor: actor || undefined },
      {
        getNextPageParam: (last, pages) => {
          const loaded = pages.reduce((n, p) => n + p.results.length, 0);
          return loaded < last.count && last.results.length > 0 ? loaded : undefined;
        },
      },
    ),
  );
  // The action list stays while a filter's page loads.
  const [actions, setActions] = useState<string[]>([]);
  const known = log.data?.pages[0]?.actions;
  useEffect(() => {
    if (known) setActions(known);
  }, [known]);
  const rows: AuditEntry[] = log.data?.pages.flatMap((p) => p.results) ?? [];

  return (
    <AdminPage title={t("admin.audit_log")} intro={t("audit.intro")}>
      <Group align="flex-end" gap="sm">
        <Select label={t("audit.action")} placeholder={t("audit.any_action")} data={actions.map((value) => ({ value, label: actionLabel(t, value) }))} value={action} onChange={setAction} clearable searchable w={240} />
        <TextInput type="search" label={t("audit.actor")} value={actorText} onChange={(e) => setActorText(e.currentTarget.value)} w={240} />
      </Group>
      <QueryState query={{ ...log, data: log.data }}>
        {(data) =>
          rows.length === 0 ? (
            <EmptyState>{t("audit.empty")}</EmptyState>
          ) : (
            <Stack>
              <Text size="sm" c="dimmed">
                {t("audit.count", { count: data.pages[0]?.count ?? 0 })}
              </Text>
              <StackedTable minWidth={720}>
                <Table striped verticalSpacing="xs" data-testid="audit-log">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("audit.time")}</Table.Th>
                      <Table.Th>{t("audit.actor")}</Table.Th>
                      <Table.Th>{t("audit.action")}</Table.Th>
                      <Table.Th>{t("audit.target")}</Table.Th>
                      <Table.Th>{t("audit.extra")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((entry) => (
                      <Table.Tr key={entry.id}>
                        <Table.Td style={{ whiteSpace: "nowrap" }} data-label={t("audit.time")}>
                          {new Date(entry.time).toLocaleString()}
                        </Table.Td>
                        <Table.Td data-label={t("audit.actor")}>{entry.username || "—"}</Table.Td>
                        <Table.Td data-label={t("audit.action")}>
                          <Stack gap={2} align="flex-start" title={entry.action}>
                            <Badge variant="light" style={{ textTransform: "none", maxWidth: "100%" }}>
                              {actionLabel(t, entry.action)}
                            </Badge>
                            <Text size="xs" c="dimmed" ff="monospace">
                              {entry.action}
                            </Text>
                          </Stack>
                        </Table.Td>
                        <Table.Td data-label={t("audit.target")}>
                          <Target entry={entry} />
                        </Table.Td>
                        <Table.Td maw={360} data-label={t("audit.extra")}>
                          <Details extra={entry.extra} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </StackedTable>
              {log.hasNextPage && (
                <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} w="fit-content" mx="auto">
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
