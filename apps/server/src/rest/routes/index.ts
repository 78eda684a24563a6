import type { RestRoutes } from "../adapter.ts";
import { adminRoutes } from "./admin.ts";
import { announcementRoutes } from "./announcements.ts";
import { authRoutes } from "./auth.ts";
import { challengeServerRoutes } from "./challenge-servers.ts";
import { challengeSyncRoutes } from "./challenge-sync.ts";
import { challengeRoutes } from "./challenges.ts";
import { configRoutes } from "./config.ts";
import { hintRoutes } from "./hints.ts";
import { leaderboardRoutes } from "./leaderboard.ts";
import { memberRoutes } from "./members.ts";
import { pageRoutes } from "./pages.ts";
import { statsRoutes } from "./stats.ts";
import { teamRoutes } from "./teams.ts";

/**
 * Every path of the REST API, in one list (the server registers it; tests walk it). `dataDir` is
 * where uploaded challenge files are stored.
 */
export function registerRestRoutes(rest: RestRoutes, options: { dataDir: string }): void {
  statsRoutes(rest);
  configRoutes(rest);
  announcementRoutes(rest);
  leaderboardRoutes(rest);
  pageRoutes(rest);
  adminRoutes(rest);
  authRoutes(rest);
  teamRoutes(rest);
  memberRoutes(rest);
  challengeRoutes(rest, options);
  challengeSyncRoutes(rest);
  hintRoutes(rest);
  challengeServerRoutes(rest);
}
