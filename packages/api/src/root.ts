import { adminRouter } from "./admin/router.ts";
import { announcementsRouter } from "./announcements/router.ts";
import { authRouter } from "./auth/router.ts";
import { challengesRouter } from "./challenges/router.ts";
import { challengeServersRouter } from "./challenge-servers/router.ts";
import { hintsRouter } from "./hints/router.ts";
import { mailRouter } from "./mail/router.ts";
import { accountRouter } from "./members/account-router.ts";
import { configRouter } from "./config/router.ts";
import { leaderboardRouter } from "./leaderboard/router.ts";
import { usersRouter } from "./members/public-router.ts";
import { moderationRouter } from "./moderation/router.ts";
import { pagesRouter } from "./pages/router.ts";
import { portRouter } from "./port/router.ts";
import { setupRouter } from "./setup/router.ts";
import { statsRouter } from "./stats/router.ts";
import { teamsRouter } from "./teams/router.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  admin: adminRouter,
  account: accountRouter,
  announcements: announcementsRouter,
  auth: authRouter,
  challenges: challengesRouter,
  challengeServers: challengeServersRouter,
  hints: hintsRouter,
  config: configRouter,
  leaderboard: leaderboardRouter,
  mail: mailRouter,
  moderation: moderationRouter,
  pages: pagesRouter,
  port: portRouter,
  setup: setupRouter,
  stats: statsRouter,
  teams: teamsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
