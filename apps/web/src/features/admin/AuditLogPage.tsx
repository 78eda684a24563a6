import { Anchor, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage } from "./AdminPage.tsx";
import { auditSentence, detailValue } from "./audit-wording.ts";
import { settingLabel } from "./setting-label.ts";
import { type LogColumn, StaffLogTable } from "./StaffLogTable.tsx";
import type { AuditEntry } from "./types.ts";
import "./texts.ts";

const PAGE = 50;

/** An action's readable name ('set_config' is 'Changed a setting'); an unnamed one spelled out ('Rename team'). */
export function actionLabel(t: (key: string, options?: { defaultValue?: string }) => string, action: string): string {
  const spelled = action.replace(/_/g, " ");
  return t(`audit.actions.${action}`, { defaultValue: spelled.charAt(0).toUpperCase() + spelled.slice(1) });
}

/** An entry's details as "key: value" lines, a setting's key with the name the config editor gives it; the raw JSON in the title. */
function Details({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const extra = entry.extra;
  const setting = entry.action === "set_config" && extra && typeof extra === "object" && "key" in extra && typeof extra.key === "string" ? extra.key : undefined;
  const label = setting ? settingLabel(t, setting) : undefined;
  const entries = extra && typeof extra === "object" && !Array.isArray(extra) ? Object.entries(extra as Record<string, unknown>) : [];
  return (
    <Stack gap={0} title={JSON.stringify(extra)} data-testid="audit-details">
      <Text size="xs" style={{ overflowWrap: "anywhere" }}>
        <Text span size="xs" c="dimmed">
          {t("audit_words.raw_action")}:
        </Text>{" "}
        <Text span size="xs" ff="monospace">
          {entry.action}
        </Text>
      </Text>
      {label && (
        <Text size="xs" data-testid="audit-setting" title={setting}>
          <Text span size="xs" c="dimmed">
            {t("audit.target")}:
          </Text>{" "}
          {label}
        </Text>
      )}
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

/**
 * An entry in words, its details (the action's code and every recorded value) shown on demand.
 * Whether they are shown is the page's to keep, by entry: a list read again (a filter's page
 * arriving) does not fold an entry the reader just opened.
 */
function Sentence({ entry, open, onToggle }: { entry: AuditEntry; open: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const sentence = auditSentence(t, entry);
  return (
    <Stack gap={4} align="flex-start" maw={520}>
      <Text size="sm" style={{ overflowWrap: "anywhere" }} data-testid="audit-sentence">
        {sentence}
      </Text>
      <Anchor component="button" type="button" size="xs" aria-expanded={open} aria-controls={id} aria-label={t("audit_words.details_of", { sentence })} onClick={onToggle}>
        {open ? t("audit_words.hide_details") : t("audit_words.show_details")}
      </Anchor>
      <div id={id} hidden={!open}>
        {open && <Details entry={entry} />}
      </div>
    </Stack>
  );
}

/** /admin/audit_log: every staff write in words, newest first, filtered by action and actor. */
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
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns: LogColumn<AuditEntry>[] = [
    { label: t("audit.time"), nowrap: true, cell: (entry) => new Date(entry.time).toLocaleString() },
    { label: t("audit.actor"), cell: (entry) => entry.username || t("audit_words.nobody") },
    { label: t("audit_words.what"), cell: (entry) => <Sentence entry={entry} open={expanded.has(entry.id)} onToggle={() => toggle(entry.id)} /> },
  ];

  return (
    <AdminPage title={t("admin.audit_log")} intro={t("audit.intro")}>
      <Group align="flex-end" gap="sm">
        <Select label={t("audit.action")} placeholder={t("audit.any_action")} data={actions.map((value) => ({ value, label: actionLabel(t, value) }))} value={action} onChange={setAction} clearable searchable w={240} maw="100%" />
        <TextInput type="search" label={t("audit.actor")} value={actorText} onChange={(e) => setActorText(e.currentTarget.value)} w={240} maw="100%" />
      </Group>
      <StaffLogTable
        query={log}
        rows={rows}
        rowKey={(entry) => entry.id}
        columns={columns}
        count={t("audit.count", { count: log.data?.pages[0]?.count ?? 0 })}
        empty={t("audit.empty")}
        minWidth={720}
        testId="audit-log"
      />
    </AdminPage>
  );
}
