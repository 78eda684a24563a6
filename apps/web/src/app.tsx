import { type MantineColorSchemeManager, MantineProvider } from "@mantine/core";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { useEffect } from "react";
import type { TRPCClient } from "@trpc/client";
import type { AppRouter as ApiRouter } from "@flagship/api";
import { TranslationProvider } from "./lib/i18n.ts";
import { TRPCProvider } from "./lib/trpc.ts";
import type { AppRouter } from "./router.tsx";
import { AppErrorBoundary } from "./shell/ErrorBoundary.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

/**
 * The app's providers around its router: the same tree in the browser and on the server (which
 * gives each page its own query cache, tRPC client and router), so that the browser's first render
 * matches the server's HTML.
 */
export function App({
  router,
  queryClient,
  trpcClient,
  colorSchemeManager,
  onMounted,
}: {
  router: AppRouter;
  queryClient: QueryClient;
  trpcClient: TRPCClient<ApiRouter>;
  colorSchemeManager: MantineColorSchemeManager;
  /** Called once the app's first render is on the page (in the browser: hydrated, or drawn). */
  onMounted?: () => void;
}) {
  useEffect(() => onMounted?.(), [onMounted]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="light">
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
            <TranslationProvider>
              <RouterProvider router={router} />
            </TranslationProvider>
          </TRPCProvider>
        </QueryClientProvider>
      </AppErrorBoundary>
    </MantineProvider>
  );
}
