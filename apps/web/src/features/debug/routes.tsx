import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import {
  DebugExperimentsPage,
  DebugIndexPage,
  DebugLoadingPage,
  DebugStatePage,
  DebugThemePage,
  DebugUiPage,
  DebugWsPage,
} from "./DebugPages.tsx";

/** The public diagnostic pages: /debug and its sub-pages. */
export const debugRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/debug", component: DebugIndexPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/debug/theme", component: DebugThemePage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/debug/state", component: DebugStatePage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/debug/ws", component: DebugWsPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/debug/ui", component: DebugUiPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/debug/loading", component: DebugLoadingPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/debug/experiments", component: DebugExperimentsPage }),
];
