import { Button, Card, Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { countdownTarget, eventGates, markdownSummary, offersSignUp } from "@flagship/shared";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { formatDuration } from "../../lib/duration.ts";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { defaultHomeContent, fillFields, type HomeBlock, splitHome } from "./home-template.ts";
import "./texts.ts";
import { useRenderNow } from "../../lib/render-clock.ts";

type T = ReturnType<typeof useTranslation>["t"];

export interface HomeCategoryView {
  id: number;
  name: string;
  description: string;
  challenges: number;
}

/** The config the home page reads (the public config's fields). */
export interface HomeEvent {
  event_name?: string;
  event_timezone?: string | null;
  start_time?: number | null;
  end_time?: number | null;
  register_start_time?: number | null;
  register_end_time?: number | null;
  enable_registration?: boolean;
  enable_login?: boolean;
}

/** Who reads the home page: a visitor, or a signed-in player with or without a team. */
export type HomeReader = { signedIn: false } | { signedIn: true; hasTeam: boolean };

/** The zone if the runtime knows it. */
function validZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** A moment in the event's own zone (its settings), so that it reads the same wherever the page is drawn. */
function formatWhen(language: string, seconds: number, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(language, { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short", ...(timeZone && { timeZone }) }).format(
    new Date(seconds * 1000),
  );
}

/** The default home page of an event, from its settings: what a fresh event shows until staff write one. */
export function defaultHome(t: T, event: HomeEvent): string {
  const start = event.start_time ?? null;
  const end = event.end_time ?? null;
  const dates = start !== null && end !== null ? "both" : start !== null ? "start" : end !== null ? "end" : null;
  return defaultHomeContent({
    intro: t("home.default_intro", { event_name: "{{event_name}}" }),
    dates: dates && t(`home.default_dates_${dates}`, { start: "{{start}}", end: "{{end}}" }),
    categories: t("home.default_categories"),
  });
}

/** Staff's home page markdown, its fields filled and its blocks drawn. */
export function HomeContent({ content, event, categories, reader = { signedIn: false } }: { content: string; event: HomeEvent; categories: HomeCategoryView[]; reader?: HomeReader }) {
  const { t, i18n } = useTranslation();
  const when = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? t("home.not_set") : formatWhen(i18n.language, seconds, validZone(event.event_timezone)));
  const values = { event_name: event.event_name ?? "Flagship CTF", start: when(event.start_time), end: when(event.end_time) };
  return (
    <Stack gap="lg" data-testid="home-content">
      {splitHome(content).map((segment, i) =>
        segment.kind === "markdown" ? (
          <Markdown key={i}>{fillFields(segment.text, values)}</Markdown>
        ) : (
          <HomeBlockView key={i} block={segment.block} event={event} categories={categories} reader={reader} />
        ),
      )}
    </Stack>
  );
}

function HomeBlockView({ block, event, categories, reader }: { block: HomeBlock; event: HomeEvent; categories: HomeCategoryView[]; reader: HomeReader }) {
  switch (block) {
    case "countdown":
      return <EventCountdown start={event.start_time ?? null} end={event.end_time ?? null} />;
    case "categories":
      return <CategoryCards categories={categories} />;
    case "actions":
      return <Actions event={event} reader={reader} />;
  }
}

/** Time to the start, then to the end, in words; refreshed every few seconds. */
function EventCountdown({ start, end }: { start: number | null; end: number | null }) {
  const { t } = useTranslation();
  const drawnAt = useRenderNow();
  const [now, setNow] = useState(() => Math.floor(drawnAt / 1000));
  useEffect(() => {
    setNow(Math.floor(Date.now() / 1000));
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), 5000);
    return () => clearInterval(timer);
  }, []);
  if (start === null && end === null) return null;
  const target = countdownTarget({ registration_open: null, countdown_timestamp: start, competition_end: end }, now);
  const text = target ? t(target.kind === "start" ? "home.starts_in" : "home.ends_in", { time: formatDuration(t, target.remaining) }) : end !== null && end <= now ? t("home.ended") : null;
  if (!text) return null;
  return (
    <Paper withBorder radius="md" p="md" w="fit-content" maw="100%" data-testid="home-countdown">
      <Text size="xl" fw={700}>
        {text}
      </Text>
    </Paper>
  );
}

/**
 * How to take part, for who is reading: a player goes to the challenges (or, before the start, to
 * their team); a visitor signs up while registration is open (offersSignUp), else logs in.
 */
function Actions({ event, reader }: { event: HomeEvent; reader: HomeReader }) {
  const { t } = useTranslation();
  const now = Math.floor(useRenderNow() / 1000);
  const times = { start_time: event.start_time ?? null, end_time: event.end_time ?? null, register_start_time: event.register_start_time ?? null, register_end_time: event.register_end_time ?? null };
  const gates = eventGates(times, now);
  let primary: { to: string; label: string } | null;
  if (reader.signedIn) {
    primary = gates.started ? { to: "/campaign", label: t("home.to_challenges") } : reader.hasTeam ? { to: "/team/me", label: t("home.to_team") } : { to: "/welcome", label: t("home.find_team") };
  } else {
    primary = offersSignUp({ ...times, enable_registration: event.enable_registration }, now) ? { to: "/register", label: t("home.sign_up") } : event.enable_login !== false ? { to: "/login", label: t("home.log_in") } : null;
  }
  return (
    <Group data-testid="home-actions">
      {primary && (
        <Button component={Link} to={primary.to} size="md">
          {primary.label}
        </Button>
      )}
      <Button component={Link} to="/leaderboard" variant="default" size="md">
        {gates.ended ? t("home.final_board") : t("home.leaderboard")}
      </Button>
    </Group>
  );
}

/** The event's categories as cards, each a link to the category. */
function CategoryCards({ categories }: { categories: HomeCategoryView[] }) {
  const { t } = useTranslation();
  if (categories.length === 0) {
    return (
      <Text c="dimmed" data-testid="home-categories-empty">
        {t("home.no_categories")}
      </Text>
    );
  }
  return (
    <SimpleGrid component="ul" cols={{ base: 1, xs: 2, md: 3 }} aria-label={t("home.categories_label")} style={{ listStyle: "none", padding: 0, margin: 0 }} data-testid="home-categories">
      {categories.map((category) => (
        <li key={category.id}>
          <Card component={Link} to={`/campaign/${category.id}`} withBorder radius="md" padding="lg" h="100%" className="fs-home-category">
            {/* Not a heading: staff's markdown decides the page's outline, and a card sits under any level of it. */}
            <Text fw={700} size="lg">
              {category.name}
            </Text>
            {category.description && (
              <Text size="sm" c="dimmed" mt={4} lineClamp={3}>
                {markdownSummary(category.description)}
              </Text>
            )}
            <Text size="sm" mt="sm" fw={500} c="var(--mantine-color-anchor)">
              {t("home.challenges", { count: category.challenges })}
            </Text>
          </Card>
        </li>
      ))}
    </SimpleGrid>
  );
}
