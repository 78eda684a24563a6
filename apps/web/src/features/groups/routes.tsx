import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { StaffOnly } from "../auth/routes.tsx";
import { LeaderboardGroupsAdmin } from "./LeaderboardGroupsAdmin.tsx";

/** Staff management of leaderboard groups, a page of its own for the admin menu to link. */
export const groupRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin/leaderboard-groups",
    component: () => (
      <StaffOnly>
        <LeaderboardGroupsAdmin />
      </StaffOnly>
    ),
  }),
];
