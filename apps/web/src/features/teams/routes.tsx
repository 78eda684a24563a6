import { createRoute, redirect } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { CreateTeamPage } from "./CreateTeamPage.tsx";
import { LoginOnly, TeamsOnly } from "./guards.tsx";
import { JoinTeamPage } from "./JoinTeamPage.tsx";
import { TeamPage } from "./TeamPage.tsx";
import { TeamsListPage } from "./TeamsListPage.tsx";
import "./register.ts";
import "./texts.ts";

export const teamRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/team",
    beforeLoad: () => {
      throw redirect({ to: "/team/$team", params: { team: "me" }, replace: true });
    },
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/team/join",
    component: () => (
      <LoginOnly>
        <TeamsOnly>
          <JoinTeamPage />
        </TeamsOnly>
      </LoginOnly>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/team/create",
    component: () => (
      <LoginOnly>
        <TeamsOnly>
          <CreateTeamPage />
        </TeamsOnly>
      </LoginOnly>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/team/$team",
    component: () => (
      <LoginOnly>
        <TeamsOnly>
          <TeamPage />
        </TeamsOnly>
      </LoginOnly>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/teams",
    component: () => (
      <TeamsOnly>
        <TeamsListPage />
      </TeamsOnly>
    ),
  }),
];
