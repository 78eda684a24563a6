import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { LargeLeaderboardPage } from "./LargeLeaderboardPage.tsx";
import { LeaderboardPage } from "./LeaderboardPage.tsx";

export const leaderboardRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/leaderboard", component: LeaderboardPage }),
  // Shown without the app shell (see Layout), for a projector.
  createRoute({ getParentRoute: () => rootRoute, path: "/largeLeaderboard", component: LargeLeaderboardPage }),
];
