import { createRootRoute, createRoute, createRouter, redirect } from "@tanstack/react-router";
import { authRoutes } from "./features/auth/routes.tsx";
import { challengeRoutes } from "./features/challenges/routes.tsx";
import { debugRoutes } from "./features/debug/routes.tsx";
import { ContentPage } from "./features/pages/ContentPage.tsx";
import { leaderboardRoutes } from "./features/leaderboard/routes.tsx";
import { profileRoutes } from "./features/profiles/routes.tsx";
import { teamRoutes } from "./features/teams/routes.tsx";
import { HomePage } from "./pages/HomePage.tsx";
import { PageFailedScreen } from "./shell/ErrorScreen.tsx";
import { Layout } from "./shell/Layout.tsx";
import { LoadingScreen } from "./shell/LoadingScreen.tsx";
import { NotFoundPage } from "./shell/NotFound.tsx";

export const rootRoute = createRootRoute({
  // Trailing slashes are removed by redirect, keeping the query and hash.
  beforeLoad: ({ location }) => {
    if (location.pathname.length > 1 && location.pathname.endsWith("/")) {
      throw redirect({ href: location.pathname.replace(/\/+$/, "") + location.searchStr + (location.hash ? `#${location.hash}` : ""), replace: true });
    }
  },
  component: Layout,
  // Unclaimed URLs may be staff-defined content pages; ContentPage falls back to 'Page not found'.
  notFoundComponent: ContentPage,
});

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: "/", component: HomePage });

const routeTree = rootRoute.addChildren([homeRoute, ...authRoutes, ...leaderboardRoutes, ...debugRoutes, ...teamRoutes, ...profileRoutes, ...challengeRoutes]);

export const router = createRouter({
  routeTree,
  defaultPendingComponent: LoadingScreen,
  defaultPendingMs: 300,
  defaultErrorComponent: ({ error, reset }) => <PageFailedScreen error={error} reset={reset} />,
  defaultNotFoundComponent: NotFoundPage,
  defaultPreload: "intent",
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
