import "./lib/zod-jitless.ts";
import "./lib/mantine-styles.ts";
// The UI typeface, self-hosted: variable weights, one woff2 per script (a page fetches Latin only).
import "@fontsource-variable/inter/wght.css";
import "@mantine/notifications/styles.css";
import "./styles.css";
import "./lib/i18n.ts";
import "./plugins/index.ts";
import { localStorageColorSchemeManager, MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { queryClient, TRPCProvider, trpcClient } from "./lib/trpc.ts";
import { router } from "./router.tsx";
import { AppErrorBoundary } from "./shell/ErrorBoundary.tsx";
import { deferred } from "./lib/deferred.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

// Trailing slashes are removed, keeping the query and hash, before the router reads the URL.
if (/.\/+$/.test(window.location.pathname)) {
  window.history.replaceState(window.history.state, "", window.location.pathname.replace(/\/+$/, "") + window.location.search + window.location.hash);
}

// Toasts live in one labelled landmark, so screen-reader users can find them. Mantine draws them
// above an open Modal or Drawer (its notifications' z-index is over its modals').
const notificationsRegion = document.createElement("div");
notificationsRegion.setAttribute("role", "region");
notificationsRegion.setAttribute("aria-label", "Notifications");
document.body.appendChild(notificationsRegion);

// The toasts' container (and its transitions) loads after the first paint; toasts shown before it
// arrives wait in the notifications store and appear when it mounts.
const Notifications = deferred(() => import("./lib/NotificationsHost.tsx").then((m) => m.default), null);

const colorSchemeManager = localStorageColorSchemeManager({ key: "flagship.color-scheme" });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="light">
      <Notifications position="top-right" limit={5} portalProps={{ target: notificationsRegion }} />
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
            <RouterProvider router={router} />
          </TRPCProvider>
        </QueryClientProvider>
      </AppErrorBoundary>
    </MantineProvider>
  </StrictMode>,
);
