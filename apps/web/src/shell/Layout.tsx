import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Burger,
  Group,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useState } from "react";
import { useSecretSequence } from "../features/terminal/secret.ts";
import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import { SessionWatcher } from "../features/auth/SessionWatcher.tsx";
import { Countdown } from "../features/countdown/Countdown.tsx";
import { AnnouncementsBell } from "../features/realtime/AnnouncementsInbox.tsx";
import { useAnnouncementList } from "../features/realtime/inbox.ts";
import { useToken } from "../lib/session.ts";
import { useMarkdownReady } from "../lib/Markdown.tsx";
import { RealtimeProvider } from "../features/realtime/RealtimeProvider.tsx";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../lib/i18n.ts";
import { useTRPC } from "../lib/trpc.ts";
import { runtime } from "../lib/runtime.ts";
import { Notices } from "./Notices.tsx";
import "./notices-texts.ts";
import { RouteFocus } from "./RouteFocus.tsx";
import { Sidebar } from "./Sidebar.tsx";
import { EventTheme } from "../features/theming/EventTheme.tsx";
import { useLogoSrc } from "../features/theming/logo-src.ts";
import { deferred } from "../lib/deferred.tsx";
import "../features/theming/theming.css";
import "./shell.css";
import { useAppData } from "./useAppData.ts";
import { Copyright } from "../features/pages/Copyright.tsx";
import { setViewAsPlayer, useViewAsPlayer } from "./viewAsPlayer.ts";

// The terminal easter egg loads with its first use of the page, not with the app.
// The tab's title is not needed for the first paint: it loads after it, off every page's first load.
const DocumentTitle = deferred("shell/DocumentTitle", () => import("./DocumentTitle.tsx").then((m) => m.DocumentTitle), null);
const FakeTerminal = deferred("features/terminal/FakeTerminal", () => import("../features/terminal/FakeTerminal.tsx").then((m) => m.FakeTerminal), null);

/**
 * The easter-egg terminal: the shell listens for its secret sequence, and the terminal's code (a
 * dialog, a scroll area, a text field) loads the first time it is typed, not with every page.
 */
function Terminal() {
  const [state, setState] = useState<"never" | "open" | "closed">("never");
  useSecretSequence(() => setState("open"));
  if (state === "never") return null;
  return <FakeTerminal opened={state === "open"} onClose={() => setState("closed")} />;
}

/**
 * The theme toggle's glyph, the scheme it switches to: Tabler's outline sun and moon (the sidebar's
 * icon set), drawn inline rather than imported so the header stays free of the icon package.
 */
function SchemeIcon({ to }: { to: "light" | "dark" }) {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false" data-icon={to === "light" ? "sun" : "moon"}>
      {to === "light" ? (
        <>
          <circle cx={12} cy={12} r={4} />
          <path d="M3 12h1m8 -9v1m8 8h1m-9 8v1m-6.4 -15.4l.7 .7m12.1 -.7l-.7 .7m0 11.4l.7 .7m-12.1 -.7l-.7 .7" />
        </>
      ) : (
        <path d="M12 3c.132 0 .263 0 .393 0a7.5 7.5 0 0 0 7.92 12.446a9 9 0 1 1 -8.313 -12.454z" />
      )}
    </svg>
  );
}

function ThemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme("light");
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={t("nav.toggle_theme")}
      title={t("nav.toggle_theme")}
      onClick={() => setColorScheme(scheme === "dark" ? "light" : "dark")}
    >
      <SchemeIcon to={scheme === "dark" ? "light" : "dark"} />
    </ActionIcon>
  );
}

/**
 * Staff's "view as a player" switch: the campaign screens, the team page and the notices drawn as a
 * player would see them, kept on this browser. Pressed, it is filled, and the notices say so.
 */
function ViewAsPlayerToggle() {
  const { t } = useTranslation();
  const { me } = useAppData();
  const on = useViewAsPlayer();
  if (!me?.isStaff) return null;
  const label = on ? t("notices.view_as_staff") : t("notices.view_as_player");
  return (
    <ActionIcon
      variant={on ? "filled" : "default"}
      color={on ? "grape" : undefined}
      size="lg"
      aria-label={t("notices.view_as_player")}
      aria-pressed={on}
      title={label}
      onClick={() => setViewAsPlayer(!on)}
      data-testid="view-as-player"
    >
      <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false">
        <path d="M10 12a2 2 0 1 0 4 0a2 2 0 0 0 -4 0" />
        <path d="M21 12c-2.4 4 -5.4 6 -9 6c-3.6 0 -6.6 -2 -9 -6c2.4 -4 5.4 -6 9 -6c3.6 0 6.6 2 9 6" />
      </svg>
    </ActionIcon>
  );
}

/**
 * The signed-in player's name and their team's points: in the header, and on a phone (where the
 * header has no room for them) at the top of the sliding sidebar.
 */
function AccountSummary({ where }: { where: "header" | "sidebar" }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { me } = useAppData();
  const team = useQuery(trpc.teams.self.queryOptions(undefined, { enabled: !!me && me.teamId !== null, staleTime: 30_000 }));
  // Name and points arrive together: a badge added after the name would move it along the header.
  if (!me || (me.teamId !== null && team.isPending)) return null;
  const header = where === "header";
  const summary = (
    <Group
      gap={6}
      wrap="nowrap"
      {...(header ? { visibleFrom: "sm" } : { px: "md", pt: "md", pb: "xs" })}
      data-testid={header ? "header-account" : "sidebar-account"}
    >
      <Text size="sm" fw={600} truncate="end" maw={160}>
        {me.username}
      </Text>
      {team.data && (
        <Badge variant="light" size="lg" title={t("nav.team_points")} data-testid={header ? "header-points" : "sidebar-points"}>
          {t("nav.points", { points: team.data.points })}
        </Badge>
      )}
    </Group>
  );
  // In the header's landmark on a desktop; atop a phone's sliding sidebar, a landmark of its own
  // (the sidebar's navigation landmark is below it), so no content of the page sits outside one.
  if (header) return summary;
  return (
    <Box component="section" hiddenFrom="sm" aria-label={t("nav.your_account")}>
      {summary}
    </Box>
  );
}

/** Pages drawn without the shell's header, sidebar and footer. */
const BARE_PAGES = new Set(["/largeLeaderboard", "/setup"]);

export function Layout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <RealtimeProvider>
      <SessionWatcher />
      <DocumentTitle />
      <EventTheme />
      <Terminal />
      {BARE_PAGES.has(pathname) ? <Outlet /> : <Shell />}
    </RealtimeProvider>
  );
}

/** The navbar's id, which the burger names as the element it opens and closes. */
const NAVBAR_ID = "app-navbar";

function Shell() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { config } = useAppData();
  const eventName = config?.event_name ?? "Flagship";
  const logoSrc = useLogoSrc();
  // The announcement bar is drawn above the page. Until the signed-in player's announcements are
  // known (and the markdown renderer that draws the bar's body has loaded, when there is one), the
  // page is laid out but not shown (its data loads meanwhile), so a bar that arrives or grows does
  // not push a page already on screen down.
  const token = useToken();
  const announcements = useAnnouncementList();
  const withBar = token !== null && (announcements.data?.length ?? 0) > 0;
  const markdownReady = useMarkdownReady(withBar);
  const settled = token === null || announcements.isError || (announcements.isFetched && (!withBar || markdownReady));

  return (
    // The sidebar runs the full height of the window with the header beside it; below the "sm"
    // breakpoint it is a panel the menu button opens under the header (shell.css).
    <div className="app-shell" data-nav-open={opened || undefined}>
      <RouteFocus />
      <a href="#main" className="skip-link">
        {t("nav.skip_to_content")}
      </a>
      <header className="app-header">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t("nav.menu")}
              aria-expanded={opened}
              aria-controls={NAVBAR_ID}
            />
            <UnstyledButton component={Link} to="/" aria-label={eventName}>
              <Group gap={8} wrap="nowrap">
                <img src={logoSrc} alt="" width={28} height={28} className="header-mark" />
                {/* Logo only on the narrowest phones, so the countdown badge keeps its room. */}
                <Text fw={700} size="lg" truncate="end" maw={{ base: 180, sm: 400 }} visibleFrom="xs">
                  {eventName}
                </Text>
              </Group>
            </UnstyledButton>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <AccountSummary where="header" />
            <Countdown />
            <ViewAsPlayerToggle />
            <AnnouncementsBell />
            <ThemeToggle />
          </Group>
        </Group>
      </header>
      <div id={NAVBAR_ID} className="app-navbar">
        <AccountSummary where="sidebar" />
        <Sidebar onNavigate={close} />
      </div>
      <main id="main" tabIndex={-1} className="app-main">
        <div className="app-content">
          {/* The notices: after the page in the tab order (a keyboard user meets the page first), shown above it. */}
          <div style={{ display: "flex", flexDirection: "column" }}>
            <div style={{ order: 2, visibility: settled ? undefined : "hidden" }}>
              <Outlet />
            </div>
            <div style={{ order: 1 }}>
              <Notices />
            </div>
          </div>
        </div>
        <Footer eventName={eventName} />
      </main>
    </div>
  );
}

function Footer({ eventName }: { eventName: string }) {
  const { t } = useTranslation();
  return (
    <Group component="footer" justify="space-between" mt="xl" pt="md" gap="xs" style={{ borderTop: "1px solid var(--mantine-color-default-border)" }}>
      <Group gap="md">
        <Anchor component={Link} to="/" size="sm">
          {t("nav.home")}
        </Anchor>
        <Anchor component={Link} to="/privacy" size="sm">
          {t("nav.privacy")}
        </Anchor>
        <Anchor component={Link} to="/terms" size="sm">
          {t("nav.terms")}
        </Anchor>
      </Group>
      <Group gap="xs" wrap="wrap">
        <Copyright eventName={eventName} />
        {runtime.footerText && (
          <Text size="sm" c="dimmed" data-testid="footer-text">
            {runtime.footerText}
          </Text>
        )}
      </Group>
    </Group>
  );
}
