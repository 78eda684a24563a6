import "./lib/zod-jitless.ts";
import "./lib/mantine-styles.ts";
// The UI typeface, self-hosted: variable weights, one woff2 per script (a page fetches Latin only).
import "@fontsource-variable/inter/wght.css";
import "@mantine/notifications/styles.css";
import "./styles.css";
import "./lib/i18n.ts";
import "./plugins/index.ts";
import { MantineProvider } from "@mantine/core";
import { hydrate } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import superjson from "superjson";
import { App } from "./app.tsx";
import { browserColorSchemeManager, syncColorSchemeCookie } from "./lib/color-scheme.ts";
import { deferred, preloadDrawn } from "./lib/deferred.tsx";
import { keepEarlyInput } from "./lib/early-input.ts";
import { cookieToken, session, setDrawnToken } from "./lib/session.ts";
import { setHydrationNow, setHydrationZone } from "./lib/render-clock.ts";
import { readSsrState } from "./lib/ssr-state.ts";
import { syncHiddenCookie } from "./features/realtime/hidden-announcements.ts";
import { queryClient, trpcClient } from "./lib/trpc.ts";
import { createAppRouter } from "./router.tsx";
import { theme } from "./theme.ts";

// Trailing slashes are removed, keeping the query and hash, before the router reads the URL.
if (/.\/+$/.test(window.location.pathname)) {
  window.history.replaceState(window.history.state, "", window.location.pathname.replace(/\/+$/, "") + window.location.search + window.location.hash);
}

const colorSchemeManager = browserColorSchemeManager();

// Toasts live in one labelled landmark, so screen-reader users can find them, drawn by a root of
// their own (the page's root is the server's HTML, which has none). Mantine draws them above an
// open Modal or Drawer (its notifications' z-index is over its modals').
const notificationsRegion = document.createElement("div");
notificationsRegion.setAttribute("role", "region");
notificationsRegion.setAttribute("aria-label", "Notifications");
document.body.appendChild(notificationsRegion);
// The toasts' container (and its transitions) loads after the first paint; toasts shown before it
// arrives wait in the notifications store and appear when it mounts.
const Notifications = deferred("lib/NotificationsHost", () => import("./lib/NotificationsHost.tsx").then((m) => m.default), null);

/**
 * Draws the toasts' root, once the page is drawn or hydrating: a second Mantine provider and the
 * container are a task of tens of milliseconds on a slow phone, which the page's start does not
 * wait for (drawn as a transition, in slices).
 */
function drawToasts(): void {
  const root = createRoot(notificationsRegion);
  startTransition(() => {
    // Its provider writes no CSS variables and global classes of its own: the app's provider has
    // them, and a second copy later in the page would outrank the event's theme (same specificity, later).
    root.render(
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="light" withGlobalClasses={false} withCssVariables={false}>
        <Notifications position="top-right" limit={5} withinPortal={false} />
      </MantineProvider>,
    );
  });
}

/**
 * Lets the browser run what waits (a paint, a click, a keypress) before the next step of starting
 * the app, so each step is a task of its own rather than one long task: scheduler.yield() where
 * the browser has it (the rest of start-up keeps its place ahead of other tasks), else a timeout.
 */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

const container = document.getElementById("root")!;
// Text typed into the server's page before it has hydrated is given back once it has.
const giveBackEarlyInput = keepEarlyInput();
const appWith = (router: ReturnType<typeof createAppRouter>) => (
  <StrictMode>
    <App router={router} queryClient={queryClient} trpcClient={trpcClient} colorSchemeManager={colorSchemeManager} onMounted={giveBackEarlyInput} />
  </StrictMode>
);

async function start(): Promise<void> {
  const ssr = readSsrState();
  // The server drew the page for the session its cookie named: hydrated when that is this
  // browser's session, else (a cookie out of step with local storage) drawn anew.
  const sameViewer = ssr !== null && ssr.signedIn === (session.token !== null) && cookieToken() === session.token;
  const sameHidden = syncHiddenCookie();
  // The page was drawn in the scheme its cookie named: hydrated when that is this browser's choice.
  const sameScheme = syncColorSchemeCookie();
  session.syncCookie();
  if (!ssr || !sameViewer || !sameScheme || (ssr.signedIn && !sameHidden)) {
    // How the page started, for anyone checking (the browser journeys): drawn here, or hydrated.
    document.documentElement.dataset.start = ssr ? "redrawn" : "drawn";
    createRoot(container).render(appWith(createAppRouter()));
    drawToasts();
    return;
  }
  // Start-up runs in steps, each its own task (the script's evaluation is the first): the page
  // is drawn already, so a tap on it is handled between them.
  await yieldToBrowser();
  const router = createAppRouter();
  await yieldToBrowser();
  hydrate(queryClient, superjson.deserialize(ssr.queries));
  setHydrationNow(ssr.now);
  setHydrationZone(ssr.zone ?? null, ssr.now);
  setDrawnToken(session.token);
  // The router draws its matches as it drew them on the server (TanStack Router's SSR mode: no
  // outer suspense around the root's matches). Its pages load no data of their own, so there is no
  // dehydrated router state beyond that.
  (router as { ssr?: { manifest: undefined } }).ssr = { manifest: undefined };
  // The first render must draw what the server drew: the route's matches resolved with their page
  // code (router.load() loads each route component's preload: deferred components have one).
  // Markdown needs no renderer: the server's HTML of it is kept (lib/Markdown.tsx).
  await router.load();
  await yieldToBrowser();
  // Then every deferred piece the server drew, down to those inside others.
  await preloadDrawn(ssr.deferred ?? []);
  await yieldToBrowser();
  document.documentElement.dataset.start = "hydrated";
  // Hydrated as a transition: React works through it in slices of a few milliseconds, yielding to
  // the browser between them (a click or a keypress is handled meanwhile), instead of one task as
  // long as the whole page.
  startTransition(() => {
    hydrateRoot(container, appWith(router));
  });
  drawToasts();
}

void start();
