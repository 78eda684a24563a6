import { createRootRoute, createRoute, createRouter } from "@tanstack/react-router";
import { authRoutes, StaffOnly } from "./features/auth/routes.tsx";
import { challengeRoutes } from "./features/challenges/routes.tsx";
import { debugRoutes } from "./features/debug/routes.tsx";
import { ContentPage } from "./features/pages/ContentPage.tsx";
import { leaderboardRoutes } from "./features/leaderboard/routes.tsx";
import { profileRoutes } from "./features/profiles/routes.tsx";
import { teamRoutes } from "./features/teams/routes.tsx";
import { HomePage } from "./pages/HomePage.tsx";
import { PortPage } from "./features/authoring/lazy.tsx";
import { PageFailedScreen } from "./shell/ErrorScreen.tsx";
import { Layout } from "./shell/Layout.tsx";
import { LoadingScreen } from "./shell/LoadingScreen.tsx";
import { NotFoundPage } from "./shell/NotFound.tsx";

export const rootRoute = createRootRoute({
  component: Layout,
  // Unclaimed URLs may be staff-defined content pages; ContentPage falls back to 'Page not found'.
  notFoundComponent: ContentPage,
});

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: "/", component: HomePage });

/** Admin pages not built yet: staff see 'Page not found', everyone else is sent home. */
const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/$",
  component: () => (
    <StaffOnly>
      <NotFoundPage />
    </StaffOnly>
  ),
});

const portRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/port",
  component: () => (
    <StaffOnly>
      <PortPage />
    </StaffOnly>
  ),
});

const routeTree = rootRoute.addChildren([homeRoute, adminRoute, portRoute, ...authRoutes, ...leaderboardRoutes, ...debugRoutes, ...teamRoutes, ...profileRoutes, ...challengeRoutes]);

export const router = createRouter({
  routeTree,
  defaultPendingComponent: LoadingScreen,
  defaultPendingMs: 300,
  defaultErrorComponent: ({ error, reset }) => <PageFailedScreen error={error} reset={reset} />,
  defaultNotFoundComponent: NotFoundPage,
  defaultPreload: "intent",
  // In-app links are normalised without a trailing slash; typed URLs are stripped in main.tsx.
  trailingSlash: "never",
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
