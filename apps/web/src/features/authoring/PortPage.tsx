import { type CtfdReport, EVENT_ARCHIVE_LIMITS, parseJsonText, validateCategoryData, validateChallengeData } from "@flagship/shared";
import { Alert, Badge, Button, Card, Checkbox, FileInput, Group, List, Paper, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { download } from "../../lib/download.ts";
import { useTranslation } from "../../lib/i18n.ts";
import { session } from "../../lib/session.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { PageFailedScreen } from "../../shell/ErrorScreen.tsx";
import { errorText } from "../auth/errors.ts";
import { isFull } from "../challenges/types.ts";
import { useCategories } from "../challenges/useCategories.ts";
import "./texts.ts";

const downloadJson = (filename: string, value: unknown) => download(filename, `${JSON.stringify(value, null, 2)}\n`, "application/json");

/** The server's message for a failed call (e.g. 'No teams to export!'). */
function serverMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : errorText(error);
}

/** A JSON file's content, or 'Failed to parse JSON.' */
async function readJson(file: File): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  return parseJsonText(await file.text());
}

function Section({ title, intro, children }: { title: string; intro?: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {title}
          </Title>
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Card>
  );
}

/** /admin/port: JSON import and export of challenges, categories and the event; CSV exports. */
export function PortPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const categories = useCategories();
  const experiments = useQuery(trpc.config.experiments.queryOptions());
  return (
    <Stack maw={1000} mx="auto" gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("port.title")}</Title>
        <Text c="dimmed">{t("port.intro")}</Text>
      </Stack>
      {categories.isPending ? (
        <LoadingScreen />
      ) : categories.error ? (
        <PageFailedScreen error={categories.error} reset={() => void categories.refetch()} />
      ) : (
        <ContentPort categories={categories.data} />
      )}
      <DataExports />
      <CtfdPort />
      {experiments.data?.importEntire === true && <EventPort />}
    </Stack>
  );
}

type Categories = NonNullable<ReturnType<typeof useCategories>["data"]>;

function ContentPort({ categories }: { categories: Categories }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [exportCategory, setExportCategory] = useState<string | null>(null);
  const [exportChallenge, setExportChallenge] = useState<string | null>(null);
  const [categoryFile, setCategoryFile] = useState<File | null>(null);
  const [challengeFile, setChallengeFile] = useState<File | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const categoryOptions = categories.map((c) => ({ value: String(c.id), label: c.name }));
  const challengeOptions = categories.map((c) => ({ group: c.name, items: c.challenges.filter(isFull).map((ch) => ({ value: String(ch.id), label: ch.name })) })).filter((g) => g.items.length > 0);

  async function run(name: string, work: () => Promise<void>) {
    setBusy(name);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  }

  const failExport = (error: unknown) => notifications.show({ color: "red", title: t("port.export_failed"), message: serverMessage(error) });

  const exportOneCategory = () =>
    run("export-category", async () => {
      try {
        const data = await client.port.exportCategory.query({ id: Number(exportCategory) });
        downloadJson(`category-${categories.find((c) => String(c.id) === exportCategory)?.slug ?? exportCategory}.json`, data);
      } catch (error) {
        failExport(error);
      }
    });

  const exportOneChallenge = () =>
    run("export-challenge", async () => {
      try {
        const data = await client.port.exportChallenge.query({ id: Number(exportChallenge) });
        downloadJson(`challenge-${exportChallenge}.json`, data);
      } catch (error) {
        failExport(error);
      }
    });

  const importOneCategory = () =>
    run("import-category", async () => {
      const fail = (message: string): void => void notifications.show({ color: "red", title: t("port.import_category_failed"), message });
      if (!categoryFile) return;
      const parsed = await readJson(categoryFile);
      if (!parsed.ok) return fail(parsed.message);
      const valid = validateCategoryData(parsed.value);
      if (!valid.ok) return fail(valid.message);
      try {
        await client.port.importCategory.mutate(parsed.value);
        await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
        setCategoryFile(null);
        notifications.show({ color: "green", message: t("port.imported_category") });
      } catch (error) {
        fail(serverMessage(error));
      }
    });

  const importOneChallenge = () =>
    run("import-challenge", async () => {
      const fail = (message: string): void => void notifications.show({ color: "red", title: t("port.import_challenge_failed"), message });
      if (!challengeFile || !target) return;
      const parsed = await readJson(challengeFile);
      if (!parsed.ok) return fail(parsed.message);
      const valid = validateChallengeData(parsed.value);
      if (!valid.ok) return fail(valid.message);
      try {
        await client.port.importChallenge.mutate({ category: Number(target), data: parsed.value });
        await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
        setChallengeFile(null);
        notifications.show({ color: "green", message: t("port.imported_challenge") });
      } catch (error) {
        fail(serverMessage(error));
      }
    });

  return (
    <Section title={t("port.challenges")}>
      {categories.length === 0 && (
        <Alert color="gray" variant="light">
          {t("port.no_categories")}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          <Select label={t("port.export_category")} placeholder={t("port.category")} data={categoryOptions} value={exportCategory} onChange={setExportCategory} searchable comboboxProps={{ withinPortal: true }} />
          <Group>
            <Button variant="light" disabled={!exportCategory} loading={busy === "export-category"} onClick={() => void exportOneCategory()}>
              {t("port.download")}
            </Button>
          </Group>
        </Stack>
        <Stack gap="xs">
          <Select label={t("port.export_challenge")} placeholder={t("port.challenge")} data={challengeOptions} value={exportChallenge} onChange={setExportChallenge} searchable comboboxProps={{ withinPortal: true }} />
          <Group>
            <Button variant="light" disabled={!exportChallenge} loading={busy === "export-challenge"} onClick={() => void exportOneChallenge()}>
              {t("port.download")}
            </Button>
          </Group>
        </Stack>
        <Stack gap="xs">
          <FileInput label={t("port.import_category")} placeholder={t("port.choose_file")} accept="application/json,.json" value={categoryFile} onChange={setCategoryFile} clearable clearButtonProps={{ "aria-label": t("port.clear_file") }} data-testid="import-category-file" />
          <Group>
            <Button disabled={!categoryFile} loading={busy === "import-category"} onClick={() => void importOneCategory()}>
              {t("port.import")}
            </Button>
          </Group>
        </Stack>
        <Stack gap="xs">
          <FileInput label={t("port.import_challenge")} placeholder={t("port.choose_file")} accept="application/json,.json" value={challengeFile} onChange={setChallengeFile} clearable clearButtonProps={{ "aria-label": t("port.clear_file") }} data-testid="import-challenge-file" />
          <Select label={t("port.import_into")} placeholder={t("port.category")} data={categoryOptions} value={target} onChange={setTarget} comboboxProps={{ withinPortal: true }} />
          <Group>
            <Button disabled={!challengeFile || !target} loading={busy === "import-challenge"} onClick={() => void importOneChallenge()}>
              {t("port.import")}
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </Section>
  );
}

function DataExports() {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const [busy, setBusy] = useState<string | null>(null);
  const exports = [
    { key: "players", label: t("port.export_players"), load: () => client.port.playersCsv.query() },
    { key: "teams", label: t("port.export_teams"), load: () => client.port.teamsCsv.query() },
    { key: "team-board", label: t("port.export_team_leaderboard"), load: () => client.port.leaderboardCsv.query({ kind: "team" }) },
    { key: "user-board", label: t("port.export_user_leaderboard"), load: () => client.port.leaderboardCsv.query({ kind: "user" }) },
  ];
  async function run(key: string, load: () => Promise<{ filename: string; csv: string }>) {
    setBusy(key);
    try {
      const file = await load();
      download(file.filename, file.csv, "text/csv;charset=utf-8");
    } catch (error) {
      notifications.show({ color: "red", title: t("port.export_failed"), message: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }
  return (
    <Section title={t("port.data")}>
      <Group gap="sm">
        {exports.map((item) => (
          <Button key={item.key} variant="light" loading={busy === item.key} onClick={() => void run(item.key, item.load)}>
            {item.label}
          </Button>
        ))}
      </Group>
    </Section>
  );
}

/** The failure an event-archive call answers with: its message and the first field detail. */
async function archiveFailure(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { d?: { message?: string; details?: Record<string, string[]> | string } } | null;
  const details = body?.d?.details && typeof body.d.details === "object" ? Object.entries(body.d.details)[0] : undefined;
  const message = body?.d?.message ?? response.statusText;
  return details ? `${message} ${details[0]}: ${details[1][0] ?? ""}` : message;
}

const authorization = (): Record<string, string> => (session.token ? { authorization: `Token ${session.token}` } : {});

/** Whole-event export and import as a .tar.gz archive (the importEntire experiment). */
function EventPort() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  async function exportEvent() {
    setBusy("export");
    try {
      const response = await fetch("/port/event", { headers: authorization() });
      if (!response.ok) throw new Error(await archiveFailure(response));
      const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "flagship-event.tar.gz";
      download(name, await response.blob(), "application/gzip");
    } catch (error) {
      notifications.show({ color: "red", title: t("port.export_failed"), message: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }
  async function importEvent() {
    if (!file) return;
    setBusy("import");
    try {
      const response = await fetch("/port/event", { method: "POST", headers: { "content-type": "application/gzip", ...authorization() }, body: file });
      if (!response.ok) throw new Error(await archiveFailure(response));
      const result = ((await response.json()) as { d: { categories: number; challenges: number; files: number } }).d;
      // The configuration, theme and content all changed.
      await queryClient.invalidateQueries();
      setFile(null);
      notifications.show({ color: "green", message: t("port.imported_event", result) });
    } catch (error) {
      notifications.show({ color: "red", title: t("port.import_event_failed"), message: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }
  return (
    <Section title={t("port.event")} intro={t("port.event_intro")}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Button variant="light" loading={busy === "export"} onClick={() => void exportEvent()}>
          {t("port.export_event")}
        </Button>
        <FileInput
          label={t("port.import_event")}
          placeholder={t("port.choose_archive")}
          accept=".tar.gz,.tgz,application/gzip"
          value={file}
          onChange={setFile}
          clearable
          clearButtonProps={{ "aria-label": t("port.clear_file") }}
          w={{ base: "100%", sm: 280 }}
          data-testid="import-event-file"
        />
        <Button disabled={!file} loading={busy === "import"} onClick={() => void importEvent()}>
          {t("port.import")}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t("port.event_limits", {
          entries: EVENT_ARCHIVE_LIMITS.maxEntries.toLocaleString("en"),
          file: EVENT_ARCHIVE_LIMITS.maxFileBytes / 1024 / 1024,
          total: (EVENT_ARCHIVE_LIMITS.maxTotalBytes / 1024 / 1024).toLocaleString("en"),
          archive: (EVENT_ARCHIVE_LIMITS.maxArchiveBytes / 1024 / 1024).toLocaleString("en"),
        })}
      </Text>
    </Section>
  );
}

type CtfdResult = { dry_run: boolean; report: CtfdReport; imported?: Record<"categories" | "challenges" | "files" | "users" | "teams" | "solves", number> };

const MAPPED_ORDER = ["categories", "challenges", "hidden", "flags", "regex", "hints", "tags", "files", "prerequisites", "decay", "users", "teams", "solves"] as const;

/**
 * Migration from CTFd: choose the export, run the dry run (the server reads the archive and
 * answers what maps and what does not), read the report, then import the same file.
 */
function CtfdPort() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [players, setPlayers] = useState(true);
  const [busy, setBusy] = useState<"check" | "import" | null>(null);
  const [report, setReport] = useState<{ file: File; players: boolean; report: CtfdReport } | null>(null);

  async function send(dryRun: boolean): Promise<CtfdResult> {
    const query = `?dry_run=${dryRun ? 1 : 0}&players=${players ? 1 : 0}`;
    const response = await fetch(`/port/ctfd${query}`, { method: "POST", headers: { "content-type": "application/zip", ...authorization() }, body: file });
    if (!response.ok) throw new Error(await archiveFailure(response));
    return ((await response.json()) as { d: CtfdResult }).d;
  }

  async function check() {
    if (!file) return;
    setBusy("check");
    setReport(null);
    try {
      const result = await send(true);
      setReport({ file, players, report: result.report });
    } catch (error) {
      notifications.show({ color: "red", title: t("port.ctfd_check_failed"), message: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }

  async function runImport() {
    if (!file) return;
    setBusy("import");
    try {
      const result = await send(false);
      await queryClient.invalidateQueries();
      setReport(null);
      setFile(null);
      const counted = Object.fromEntries(Object.entries(result.imported ?? {}).map(([key, count]) => [key, t(`port.ctfd_count.${key}`, { count })]));
      notifications.show({ color: "green", message: t("port.ctfd_imported", counted) });
    } catch (error) {
      notifications.show({ color: "red", title: t("port.ctfd_import_failed"), message: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }

  // The report is for one file and one choice; changing either asks for a new dry run.
  const current = report !== null && report.file === file && report.players === players ? report.report : null;
  return (
    <Section title={t("port.ctfd")} intro={t("port.ctfd_intro")}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <FileInput
          label={t("port.ctfd_file")}
          placeholder={t("port.choose_zip")}
          accept=".zip,application/zip"
          value={file}
          onChange={setFile}
          clearable
          clearButtonProps={{ "aria-label": t("port.clear_file") }}
          w={{ base: "100%", sm: 320 }}
          data-testid="import-ctfd-file"
        />
        <Button variant="light" disabled={!file || busy === "import"} loading={busy === "check"} onClick={() => void check()}>
          {t("port.ctfd_check")}
        </Button>
      </Group>
      <Checkbox label={t("port.ctfd_players")} description={t("port.ctfd_players_help")} checked={players} onChange={(event) => setPlayers(event.currentTarget.checked)} />
      <Text size="sm" c="dimmed">
        {t("port.ctfd_limits", {
          entries: EVENT_ARCHIVE_LIMITS.maxEntries.toLocaleString("en"),
          file: EVENT_ARCHIVE_LIMITS.maxFileBytes / 1024 / 1024,
          total: (EVENT_ARCHIVE_LIMITS.maxTotalBytes / 1024 / 1024).toLocaleString("en"),
          archive: (EVENT_ARCHIVE_LIMITS.maxArchiveBytes / 1024 / 1024).toLocaleString("en"),
        })}
      </Text>
      {/* Always mounted, so screen readers announce what is written into it. */}
      <Text size="sm" role="status">
        {busy === null ? "" : busy === "check" ? t("port.ctfd_checking") : t("port.ctfd_importing")}
      </Text>
      {current && file && (
        <CtfdReportView report={current} fileName={file.name}>
          <Group>
            <Button loading={busy === "import"} disabled={busy === "check"} onClick={() => void runImport()}>
              {t("port.ctfd_import")}
            </Button>
          </Group>
        </CtfdReportView>
      )}
    </Section>
  );
}

function CtfdReportView({ report, fileName, children }: { report: CtfdReport; fileName: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const shown = MAPPED_ORDER.filter((key) => report.players || !["users", "teams", "solves"].includes(key));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t("port.ctfd_report")} data-testid="ctfd-report">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h5">
            {t("port.ctfd_report")}
          </Title>
          <Text size="sm">{t("port.ctfd_report_intro", { file: fileName })}</Text>
          <Text size="sm" c="dimmed">
            {report.mode === "users" ? t("port.ctfd_mode_users") : t("port.ctfd_mode_teams")}
          </Text>
        </Stack>
        <Stack gap="xs">
          <Title order={4} size="h6">
            {t("port.ctfd_maps")}
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" component="dl" m={0}>
            {shown.map((key) => (
              <Paper key={key} withBorder radius="sm" p="xs">
                <Text component="dt" size="xs" c="dimmed">
                  {t(`port.ctfd_mapped.${key}`)}
                </Text>
                <Text component="dd" m={0} fw={700} size="lg">
                  {report.mapped[key]}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        </Stack>
        <Stack gap="xs">
          <Title order={4} size="h6">
            {t("port.ctfd_not_mapped")}
          </Title>
          {report.skipped.length === 0 ? (
            <Text size="sm">{t("port.ctfd_everything_maps")}</Text>
          ) : (
            // A list of cards rather than a table: the reasons are long, and it reads the same on a phone.
            <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: "none" }} data-testid="ctfd-skipped">
              {report.skipped.map((item) => (
                <Paper key={`${item.kind}:${item.reason}`} component="li" withBorder radius="sm" p="sm">
                  <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
                    <Text size="sm" fw={700}>
                      {t(`port.ctfd_kind.${item.kind}`)}
                    </Text>
                    <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                      {t("port.ctfd_left_out", { count: item.count })}
                    </Badge>
                  </Group>
                  <Text size="sm">{item.reason}</Text>
                  {item.examples.length > 0 && (
                    <Text size="xs" c="dimmed">
                      {t("port.ctfd_examples")}: {item.examples.join(", ")}
                    </Text>
                  )}
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
        {report.notes.length > 0 && (
          <Alert color="blue" variant="light" title={t("port.ctfd_notes")}>
            <List size="sm" spacing={4}>
              {report.notes.map((note, index) => (
                // Notes are grouped by the server, but nothing promises two never read the same.
                <List.Item key={index}>{note}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
