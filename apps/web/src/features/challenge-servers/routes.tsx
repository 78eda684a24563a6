import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { StaffOnly } from "../auth/routes.tsx";
import { JobsPage } from "./JobsPage.tsx";

export const challengeServerRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin/jobs",
    component: () => (
      <StaffOnly>
        <JobsPage />
      </StaffOnly>
    ),
  }),
] as const;
