import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { deferred } from "../../lib/deferred.tsx";

const DebugExperimentsPage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugExperimentsPage));
const DebugIndexPage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugIndexPage));
const DebugLoadingPage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugLoadingPage));
const DebugStatePage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugStatePage));
const DebugThemePage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugThemePage));
const DebugUiPage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugUiPage));
const DebugWsPage = deferred("features/debug/DebugPages", () => import("./DebugPages.tsx").then((m) => m.DebugWsPage));

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
