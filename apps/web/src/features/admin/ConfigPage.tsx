import { Button, Card, Group, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { type Config, type ConfigKey, type EventSchedule, LOGIN_PROVIDERS, scheduleProblems } from "@flagship/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useLeaveGuard } from "../../lib/leave-guard.tsx";
import { EventSpanFields, EventTimeField } from "../../lib/EventTimeField.tsx";
import { IntegerInput } from "../../lib/IntegerInput.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { AdminPage, QueryState } from "./AdminPage.tsx";
import { settingLabel } from "./setting-label.ts";
import "./admin.css";
import "./texts.ts";

type Kind = "switch" | "number" | "text" | "time" | "provider";

/** Every config key of the staff spec, grouped as an organiser thinks of them, with its input. */
const GROUPS: { id: string; fields: [ConfigKey, Kind][] }[] = [
  { id: "event", fields: [["event_name", "text"], ["enable_maintenance_mode", "switch"], ["enable_force_admin_2fa", "switch"]] },
  {
    id: "dates",
    fields: [["register_start_time", "time"], ["register_end_time", "time"], ["start_time", "time"], ["end_time", "time"], ["scoreboard_freeze_time", "time"], ["event_timezone", "text"]],
  },
  {
    id: "registration",
    fields: [
      ["enable_registration", "switch"],
      ["enable_login", "switch"],
      ["enable_prelogin", "switch"],
      ["invite_required", "switch"],
      ["email_domain", "text"],
      ["email_regex", "text"],
      ["login_provider", "provider"],
      ["registration_provider", "provider"],
    ],
  },
  { id: "teams", fields: [["enable_teams", "switch"], ["team_size", "number"], ["enable_team_join", "switch"], ["enable_team_leave", "switch"]] },
  { id: "scoring", fields: [["enable_scoring", "switch"], ["enable_scoreboard", "switch"], ["enable_solve_broadcast", "switch"], ["enable_ctftime", "switch"]] },
  {
    id: "flags",
    fields: [
      ["flag_prefix", "text"],
      ["enable_flag_submission", "switch"],
      ["enable_flag_submission_after_competition", "switch"],
      ["enable_view_challenges_after_competion", "switch"],
      ["sharing_wrong_flag_window", "number"],
    ],
  },
  { id: "challenge_servers", fields: [["enable_challenge_server", "switch"]] },
  { id: "integrations", fields: [["firstblood_webhook", "text"]] },
];

/** The feature toggles of the spec, kept in the `experiments` map. */
export const EXPERIMENTS = ["showDev", "accDeletion", "accOauth", "importEntire", "advSearch", "leaderboardReload", "layoutDebug"] as const;

type FormValues = Record<string, unknown>;

const time = (value: unknown) => (typeof value === "number" ? value : null);

/** The form's event times, for judging the schedule before it is saved. */
const schedule = (values: FormValues): EventSchedule => ({
  start_time: time(values.start_time),
  end_time: time(values.end_time),
  register_start_time: time(values.register_start_time),
  register_end_time: time(values.register_end_time),
  scoreboard_freeze_time: time(values.scoreboard_freeze_time),
});

function toForm(config: Partial<Config>): FormValues {
  const values: FormValues = {};
  for (const group of GROUPS) {
    for (const [key, kind] of group.fields) values[key] = kind === "time" ? ((config[key] as number | null | undefined) ?? null) : config[key];
  }
  for (const name of EXPERIMENTS) values[`experiment_${name}`] = config.experiments?.[name] === true;
  return values;
}

/** The keys whose values differ from what was loaded, in the server's types. */
function changes(values: FormValues, loaded: FormValues, config: Partial<Config>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const group of GROUPS) {
    for (const [key, kind] of group.fields) {
      if (values[key] === loaded[key]) continue;
      patch[key] = kind === "number" ? Number(values[key]) : values[key];
    }
  }
  const experiments = { ...config.experiments };
  let experimentsChanged = false;
  for (const name of EXPERIMENTS) {
    if (values[`experiment_${name}`] === loaded[`experiment_${name}`]) continue;
    experiments[name] = values[`experiment_${name}`] === true;
    experimentsChanged = true;
  }
  if (experimentsChanged) patch.experiments = experiments;
  return patch;
}

/** /admin/config: every setting of the event, saved together. */
export function ConfigPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const config = useQuery(trpc.config.list.queryOptions(undefined, { staleTime: 30_000 }));
  return (
    <AdminPage title={t("admin.config")} intro={t("config.intro")}>
      <QueryState query={config} rows={10}>
        {(data) => <ConfigForm key={JSON.stringify(data)} config={data} />}
      </QueryState>
    </AdminPage>
  );
}

function ConfigForm({ config }: { config: Partial<Config> }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  const loaded = toForm(config);
  const server = useServerForm<FormValues, unknown>({
    initialValues: loaded,
    // An impossible schedule is refused on the field to fix, before anything is sent.
    validate: (values) =>
      Object.fromEntries(Object.entries(scheduleProblems(schedule(values))).map(([key, problem]) => [key, t(`event_time.problems.${problem}`)])),
    submit: (values) => client.config.setMany.mutate(changes(values, loaded, config)),
    success: t("config.updated"),
    failure: t("config.failed"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.config.list.queryKey() }),
  });
  const { form } = server;
  // Leaving the page (a link, the back button, closing the tab) with unsaved changes asks first.
  const leaveGuard = useLeaveGuard(form.isDirty());

  const field = (key: ConfigKey, kind: Kind) => {
    const label = settingLabel(t, key) ?? key;
    const description = t(`config.help.${key}`, { defaultValue: "" }) || undefined;
    switch (kind) {
      case "switch":
        return <Switch key={key} label={label} description={description} {...form.getInputProps(key, { type: "checkbox" })} />;
      case "number":
        return <IntegerInput key={key} label={label} description={description} min={0} {...form.getInputProps(key)} />;
      case "time":
        return (
          <EventTimeField
            key={key}
            label={label}
            description={t("config.time_help")}
            value={(form.values[key] as number | null) ?? null}
            onChange={(seconds) => form.setFieldValue(key, seconds)}
            error={form.errors[key]}
            data-testid={`config-${key}`}
          />
        );
      case "provider":
        return (
          <NativeSelect
            key={key}
            label={label}
            description={description}
            data={LOGIN_PROVIDERS.map((value) => ({ value, label: t(`config.providers.${value}`) }))}
            {...form.getInputProps(key)}
          />
        );
      default:
        return <TextInput key={key} label={label} description={description} {...form.getInputProps(key)} />;
    }
  };

  return (
    <ServerFormBox server={server}>
      {leaveGuard.prompt}
      <Stack gap="md" className="fs-config-form">
        {GROUPS.map((group) => (
          <Card key={group.id} withBorder radius="md" padding="lg" component="section" aria-labelledby={`config-${group.id}`}>
            <Title order={2} size="h4" id={`config-${group.id}`} mb="sm">
              {t(`config.groups.${group.id}`)}
            </Title>
            {group.id === "dates" ? (
              <Stack gap="lg">
                <EventSpanFields
                  start={(form.values.start_time as number | null) ?? null}
                  end={(form.values.end_time as number | null) ?? null}
                  onStartChange={(seconds) => form.setFieldValue("start_time", seconds)}
                  onEndChange={(seconds) => form.setFieldValue("end_time", seconds)}
                  startLabel={settingLabel(t, "start_time") ?? "start_time"}
                  endLabel={settingLabel(t, "end_time") ?? "end_time"}
                  startDescription={t("config.time_help")}
                  endDescription={t("config.time_help")}
                  startError={form.errors.start_time}
                  endError={form.errors.end_time}
                />
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
                  {group.fields.filter(([key]) => key !== "start_time" && key !== "end_time").map(([key, kind]) => field(key, kind))}
                </SimpleGrid>
              </Stack>
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
                {group.fields.map(([key, kind]) => field(key, kind))}
              </SimpleGrid>
            )}
          </Card>
        ))}
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="config-experiments">
          <Title order={2} size="h4" id="config-experiments" mb={4}>
            {t("config.groups.experiments")}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t("config.experiments_intro")}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {EXPERIMENTS.map((name) => (
              <Switch
                key={name}
                label={t(`config.experiments.${name}`)}
                description={
                  <Text span size="xs" ff="monospace">
                    {name}
                  </Text>
                }
                {...form.getInputProps(`experiment_${name}`, { type: "checkbox" })}
              />
            ))}
          </SimpleGrid>
        </Card>
        {(form.isDirty() || server.pending) && (
          // Only while there is something to save; in the flow at the form's end, so the last field is never under it.
          <Group justify="flex-end" pos="sticky" bottom={0} py="sm" gap="sm" wrap="nowrap" bg="var(--mantine-color-body)" className="fs-config-bar" data-testid="config-save-bar">
            <Text size="sm" c="dimmed" mr="auto" visibleFrom="sm">
              {t("config.unsaved")}
            </Text>
            <Button variant="default" onClick={() => form.reset()}>
              {t("config.reset")}
            </Button>
            <Button type="submit" loading={server.pending}>
              {t("config.save")}
            </Button>
          </Group>
        )}
      </Stack>
    </ServerFormBox>
  );
}
