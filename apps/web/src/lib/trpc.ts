import type { AppRouter } from "@flagship/api";
import { ERRORS, TIMINGS } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import { session } from "./session.ts";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

const REQUEST_TIMEOUT_MS = 30_000;

export const queryClient = new QueryClient({
  // A page's background reads that hit a rate limit say so once, app-wide; forms show their own.
  queryCache: new QueryCache({
    onError(error) {
      if (errorCode(error) === "throttled") {
        notifications.show({ id: "throttled", color: "orange", title: ERRORS.throttled.message, message: "", autoClose: TIMINGS.popupDismissMs });
      }
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (count, error) => count < 2 && !(error instanceof TRPCClientError && error.data?.httpStatus < 500),
      refetchOnWindowFocus: false,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: "/trpc",
      transformer: superjson,
      // A call that hangs gives up after 30 s and says so ('Network request timed out').
      fetch: (url, options) => {
        const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        return fetch(url, { ...(options as RequestInit), signal });
      },
      headers() {
        const token = session.token;
        return token ? { authorization: `Token ${token}` } : {};
      },
    }),
  ],
});

/** The app error code of a failed call (from the shared catalogue), if the server sent one. */
export function errorCode(error: unknown): string | null {
  if (error instanceof TRPCClientError) return (error.data as { appCode?: string } | undefined)?.appCode ?? null;
  return null;
}
