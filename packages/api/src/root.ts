import { announcementsRouter } from "./announcements/router.ts";
import { authRouter } from "./auth/router.ts";
import { configRouter } from "./config/router.ts";
import { statsRouter } from "./stats/router.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  announcements: announcementsRouter,
  auth: authRouter,
  config: configRouter,
  stats: statsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
