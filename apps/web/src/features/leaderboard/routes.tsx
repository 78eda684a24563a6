import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { deferred } from "../../lib/deferred.tsx";

const LargeLeaderboardPage = deferred("features/leaderboard/LargeLeaderboardPage", () => import("./LargeLeaderboardPage.tsx").then((m) => m.LargeLeaderboardPage));
const LeaderboardPage = deferred("features/leaderboard/LeaderboardPage", () => import("./LeaderboardPage.tsx").then((m) => m.LeaderboardPage));

export const leaderboardRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/leaderboard", component: LeaderboardPage }),
  // Shown without the app shell (see Layout), for a projector.
  createRoute({ getParentRoute: () => rootRoute, path: "/largeLeaderboard", component: LargeLeaderboardPage }),
];
