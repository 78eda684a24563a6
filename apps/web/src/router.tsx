import { createRootRoute, createRoute, createRouter, type RouterHistory, redirect } from "@tanstack/react-router";
import { adminRoutes } from "./features/admin/routes.tsx";
import { authRoutes } from "./features/auth/routes.tsx";
import { challengeRoutes } from "./features/challenges/routes.tsx";
import { debugRoutes } from "./features/debug/routes.tsx";
import { ContentPage } from "./features/pages/ContentPage.tsx";
import { leaderboardRoutes } from "./features/leaderboard/routes.tsx";
import { profileRoutes } from "./features/profiles/routes.tsx";
import { setupRoutes } from "./features/setup/routes.tsx";
import { teamRoutes } from "./features/teams/routes.tsx";
import { deferred } from "./lib/deferred.tsx";
import { runtime } from "./lib/runtime.ts";
import { PageFailedScreen } from "./shell/ErrorScreen.tsx";
import { Layout } from "./shell/Layout.tsx";
import { LoadingScreen } from "./shell/LoadingScreen.tsx";
import { NotFoundPage } from "./shell/NotFound.tsx";

const HomePage = deferred("pages/HomePage", () => import("./pages/HomePage.tsx").then((m) => m.HomePage));

export const rootRoute = createRootRoute({
  // A server without any account leads every page to the first-run setup (the server says so in
  // the page; the setup page asks again before it shows the flow).
  beforeLoad: ({ location }) => {
    if (runtime.setup && location.pathname !== "/setup") throw redirect({ to: "/setup", replace: true });
  },
  component: Layout,
  // Unclaimed URLs may be staff-defined content pages; ContentPage falls back to 'Page not found'.
  notFoundComponent: ContentPage,
});

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: "/", component: HomePage });

const routeTree = rootRoute.addChildren([homeRoute, ...adminRoutes, ...authRoutes, ...leaderboardRoutes, ...debugRoutes, ...teamRoutes, ...profileRoutes, ...challengeRoutes, ...setupRoutes]);

/** A router over the app's routes: the browser's one (below), or one per page the server draws (with a memory history). */
export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    defaultPendingComponent: LoadingScreen,
    defaultPendingMs: 300,
    defaultErrorComponent: ({ error, reset }) => <PageFailedScreen error={error} reset={reset} />,
    defaultNotFoundComponent: NotFoundPage,
    defaultPreload: "intent",
    // In-app links are normalised without a trailing slash; typed URLs are stripped in main.tsx.
    trailingSlash: "never",
    // In the browser only: on the server it would add an inline script, which the CSP refuses.
    scrollRestoration: !history,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
