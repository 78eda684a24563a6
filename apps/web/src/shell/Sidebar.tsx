import { offersSignUp } from "@flagship/shared";
import { Divider, NavLink, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { Link, useRouterState } from "@tanstack/react-router";
// Named imports of single icons: the build keeps only these (the package has no side effects).
import {
  IconFileText,
  IconFlag,
  IconHome,
  IconLogin,
  IconLogout,
  IconSettings,
  IconShieldHalf,
  IconTool,
  IconTrophy,
  IconUserCircle,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from "@tabler/icons-react";
import { useTranslation } from "../lib/i18n.ts";
import { useTRPC } from "../lib/trpc.ts";
import { ariaCurrent, currentEntry, EXACT_MATCH, useSectionOpen } from "./current-entry.ts";
import { useCurrentEntryInView } from "./current-entry-in-view.ts";
import { useAppData } from "./useAppData.ts";
import { ADMIN_GROUPS, ADMIN_PAGES } from "../features/admin/registry.tsx";
import { CampaignNav } from "../features/challenges/CampaignNav.tsx";
import { useCategories } from "../features/challenges/useCategories.ts";

interface Entry {
  to: string;
  label: string;
}

/** Each entry's icon (decorative: the label names the entry). */
const ICONS: Record<string, Icon> = {
  "/": IconHome,
  "/users": IconUsers,
  "/teams": IconUsersGroup,
  "/leaderboard": IconTrophy,
  "/campaign": IconFlag,
  "/profile/me": IconUserCircle,
  "/team/me": IconShieldHalf,
  "/settings": IconSettings,
  "/logout": IconLogout,
  "/login": IconLogin,
  "/register": IconUserPlus,
};

/** The config's event times, an unset one as no gate. */
function eventTimes(config: { start_time?: number | null; end_time?: number | null; register_start_time?: number | null; register_end_time?: number | null }) {
  return { start_time: config.start_time ?? null, end_time: config.end_time ?? null, register_start_time: config.register_start_time ?? null, register_end_time: config.register_end_time ?? null };
}

export function NavIcon({ icon: Glyph }: { icon: Icon | undefined }) {
  return Glyph ? <Glyph size={18} stroke={1.75} aria-hidden focusable="false" /> : null;
}

/** The sidebar: entries for the audience (logged out, player, staff), each shown only when enabled. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { config, me, loading } = useAppData();
  const trpc = useTRPC();
  // The pages staff placed in the navigation (Admin → Pages), listed after the leaderboard.
  const navPages = useQuery(trpc.pages.nav.queryOptions(undefined, { staleTime: 60_000 })).data ?? [];
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const teams = config?.enable_teams !== false;
  const current = currentEntry(pathname, me);
  const [adminOpened, setAdminOpened] = useSectionOpen(current === "/admin");
  const panel = useRef<HTMLElement>(null);
  useCurrentEntryInView(panel, pathname);
  // On a challenges page the categories' submenu opens under its entry once they are known. Until
  // then the entries below it are laid out but not shown, so the submenu arriving does not push
  // entries already on screen down.
  const categories = useCategories(me !== null);
  const holdBelowCampaign = (pathname === "/campaign" || pathname.startsWith("/campaign/")) && me !== null && categories.isPending;
  const held = holdBelowCampaign ? { visibility: "hidden" as const } : undefined;

  const entries: Entry[] = [
    { to: "/", label: t("nav.home") },
    { to: "/users", label: t("nav.users") },
    ...(teams ? [{ to: "/teams", label: t("nav.teams") }] : []),
    { to: "/leaderboard", label: t("nav.leaderboard") },
  ];
  if (me) {
    entries.push(
      { to: "/campaign", label: t("nav.challenges") },
      { to: "/profile/me", label: t("nav.profile") },
      ...(teams ? [{ to: "/team/me", label: t("nav.team") }] : []),
      { to: "/settings", label: t("nav.settings") },
      { to: "/logout", label: t("nav.logout") },
    );
  } else if (!loading) {
    // Only once the session is known: a signed-in player must not see 'Log in' flash on each load.
    if (config?.enable_login !== false) entries.push({ to: "/login", label: t("nav.login") });
    // Sign-up on the same rule as the home page's button: not after the end unless staff kept it open.
    if (config && offersSignUp({ ...eventTimes(config), enable_registration: config.enable_registration }, Math.floor(Date.now() / 1000))) {
      entries.push({ to: "/register", label: t("nav.register") });
    }
  }

  // The pages staff placed in the navigation, after the leaderboard; a page at an address that
  // already has an entry is not listed twice.
  const pageEntries = navPages.map((page) => ({ to: `/${page.url.replace(/^\/+|\/+$/g, "")}`, label: page.title }));
  entries.splice(entries.findIndex((e) => e.to === "/leaderboard") + 1, 0, ...pageEntries.filter((p) => !entries.some((e) => e.to === p.to)));

  const campaignIndex = entries.findIndex((e) => e.to === "/campaign");

  return (
    <nav ref={panel} aria-label={t("nav.main_navigation")} className="app-sidebar">
      <Stack gap={2} p="xs">
        {entries.map((entry, index) =>
          entry.to === "/campaign" ? (
            <CampaignNav key={entry.to} label={entry.label} icon={<NavIcon icon={IconFlag} />} pathname={pathname} onNavigate={onNavigate} />
          ) : (
          <NavLink
            key={entry.to}
            component={Link}
            activeOptions={EXACT_MATCH}
            to={entry.to}
            label={entry.label}
            leftSection={<NavIcon icon={ICONS[entry.to] ?? IconFileText} />}
            active={current === entry.to || pathname === entry.to}
            onClick={onNavigate}
            aria-current={ariaCurrent(pathname, entry.to, current === entry.to)}
            style={campaignIndex !== -1 && index > campaignIndex ? held : undefined}
          />
          ),
        )}
        {me?.isStaff && (
          <>
            {/* The staff console stands apart from the player's entries, its pages in five groups. */}
            <Divider my={6} label={t("admin_groups.console")} labelPosition="left" className="sidebar-console-divider" style={held} />
            <NavLink
              component="button"
              type="button"
              label={t("nav.admin")}
              leftSection={<NavIcon icon={IconTool} />}
              active={current === "/admin"}
              opened={adminOpened}
              onChange={setAdminOpened}
              aria-expanded={adminOpened}
              childrenOffset="md"
              style={held}
            >
              {ADMIN_GROUPS.map((group) => (
                <div key={group} role="group" aria-labelledby={`admin-group-${group}`} data-testid="admin-group">
                  <Text id={`admin-group-${group}`} size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pt={8} pb={2} style={{ letterSpacing: "0.05em" }}>
                    {t(`admin_groups.${group}`)}
                  </Text>
                  {ADMIN_PAGES.filter((p) => p.group === group).map(({ page, label }) => (
                    <NavLink
                      key={page}
                      component={Link}
                      activeOptions={EXACT_MATCH}
                      to={`/admin/${page}`}
                      label={t(label)}
                      aria-current={ariaCurrent(pathname, `/admin/${page}`, false)}
                      onClick={onNavigate}
                    />
                  ))}
                </div>
              ))}
            </NavLink>
          </>
        )}
      </Stack>
    </nav>
  );
}
