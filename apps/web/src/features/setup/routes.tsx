import { createRoute } from "@tanstack/react-router";
import { deferred } from "../../lib/deferred.tsx";
import { rootRoute } from "../../router.tsx";

const SetupPage = deferred("features/setup/SetupPage", () => import("./SetupPage.tsx").then((m) => m.SetupPage));

export const setupRoutes = [createRoute({ getParentRoute: () => rootRoute, path: "/setup", component: SetupPage })] as const;
