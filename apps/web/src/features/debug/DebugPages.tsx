import { Alert, Anchor, Badge, Button, Card, Code, ColorSwatch, Group, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from "@mantine/core";
import { useComputedColorScheme } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { PALETTES } from "../../theme.ts";
import { THEME_COLOURS } from "@flagship/shared";
import { ThemeBuilder } from "../authoring/lazy.tsx";
import { SynthwaveToggle } from "../theming/SynthwaveToggle.tsx";
import { showPopup } from "../../plugins/screens.tsx";
import { useRealtimeState } from "../realtime/RealtimeProvider.tsx";
import "../authoring/texts.ts";

const PAGES = ["theme", "state", "ws", "ui", "loading", "experiments"] as const;

export function DebugIndexPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={720} mx="auto">
      <Title order={1}>{t("debug.title")}</Title>
      <Text c="dimmed">{t("debug.intro")}</Text>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }}>
        {PAGES.map((page) => (
          <Card key={page} withBorder component={Link} to={`/debug/${page}`}>
            <Text fw={600}>{t(`debug.${page}`)}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export function DebugThemePage() {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme("light");
  const { me, config } = useAppData();
  return (
    <Stack maw={960} mx="auto">
      <Title order={1}>{t("debug.theme")}</Title>
      <Text c="dimmed">{t("debug.scheme", { scheme })}</Text>
      <SynthwaveToggle />
      {config?.theme && (
        <Card withBorder data-testid="event-palette">
          <Text fw={600} mb="sm">
            {t("theme.palette_event")}
          </Text>
          <Group>
            {THEME_COLOURS.map((colour) => (
              <Stack key={colour} gap={4} align="center">
                <ColorSwatch color={config.theme![colour]} size={40} />
                <Text size="xs">{colour}</Text>
                <Code>{config.theme![colour]}</Code>
              </Stack>
            ))}
          </Group>
        </Card>
      )}
      {me?.isStaff && <ThemeBuilder />}
      {(["light", "dark"] as const).map((name) => (
        <Card key={name} withBorder>
          <Text fw={600} mb="sm">
            {name}
          </Text>
          <Group>
            {Object.entries(PALETTES[name]).map(([colour, value]) => (
              <Stack key={colour} gap={4} align="center">
                <ColorSwatch color={value} size={40} />
                <Text size="xs">{colour}</Text>
                <Code>{value}</Code>
              </Stack>
            ))}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

export function DebugStatePage() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  return (
    <Stack maw={900} mx="auto">
      <Title order={1}>{t("debug.state")}</Title>
      <Code block>{JSON.stringify({ me, config }, null, 2)}</Code>
    </Stack>
  );
}

export function DebugWsPage() {
  const { t } = useTranslation();
  const { connected, cooldown, timer, recent } = useRealtimeState();
  return (
    <Stack maw={900} mx="auto">
      <Title order={1}>{t("debug.ws")}</Title>
      <Group>
        <Badge color={connected ? "green" : "red"}>{connected ? t("debug.connected") : t("debug.disconnected")}</Badge>
        <Text size="sm">{t("debug.cooldown", { cooldown, timer })}</Text>
      </Group>
      {recent.length === 0 ? <Text c="dimmed">{t("debug.no_events")}</Text> : <Code block>{recent.map((e) => JSON.stringify(e)).join("\n")}</Code>}
    </Stack>
  );
}

export function DebugUiPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={720} mx="auto">
      <Title order={1}>{t("debug.ui")}</Title>
      <Group>
        {(["flagship", "green", "yellow", "red", "gray"] as const).map((color) => (
          // Dark text on the light fills (green, yellow), white on the dark ones: 4.5:1 either way.
          <Button key={color} color={color} autoContrast>
            {color}
          </Button>
        ))}
      </Group>
      <TextInput label="Text input" placeholder="Type here" description="With a description" />
      <Switch label="A switch" />
      <Alert title="An alert">With some body text.</Alert>
      <Button variant="light" onClick={() => notifications.show({ title: "A popup", message: "It dismisses itself after 10 seconds.", autoClose: 10_000 })}>
        {t("debug.show_popup")}
      </Button>
      <Group>
        <Button variant="default" onClick={() => showPopup("medal", { data: { medal: "gold" } })}>
          Medal popup
        </Button>
        <Button variant="default" onClick={() => showPopup("medal", { data: { medal: "platinum" } })}>
          Unknown medal popup
        </Button>
      </Group>
      <Anchor component={Link} to="/debug">
        {t("debug.title")}
      </Anchor>
    </Stack>
  );
}

export function DebugLoadingPage() {
  return <LoadingScreen />;
}

export function DebugExperimentsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { data } = useQuery(trpc.config.experiments.queryOptions());
  const entries = Object.entries(data ?? {});
  return (
    <Stack maw={720} mx="auto">
      <Title order={1}>{t("debug.experiments")}</Title>
      {entries.length === 0 ? (
        <Text c="dimmed">{t("debug.no_experiments")}</Text>
      ) : (
        <Table>
          <Table.Tbody>
            {entries.map(([name, on]) => (
              <Table.Tr key={name}>
                <Table.Td>
                  <Code>experiment.{name}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge color={on ? "green" : "gray"}>{on ? "on" : "off"}</Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
