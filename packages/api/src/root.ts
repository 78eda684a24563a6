import { announcementsRouter } from "./announcements/router.ts";
import { authRouter } from "./auth/router.ts";
import { configRouter } from "./config/router.ts";
import { leaderboardRouter } from "./leaderboard/router.ts";
import { usersRouter } from "./members/public-router.ts";
import { statsRouter } from "./stats/router.ts";
import { teamsRouter } from "./teams/router.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  announcements: announcementsRouter,
  auth: authRouter,
  config: configRouter,
  leaderboard: leaderboardRouter,
  stats: statsRouter,
  teams: teamsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
