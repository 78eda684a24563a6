import { createRoute, redirect } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { LoginOnly, TeamsOnly } from "./guards.tsx";
import "./register.ts";
import "./texts.ts";
import { deferred } from "../../lib/deferred.tsx";

const CreateTeamPage = deferred("features/teams/CreateTeamPage", () => import("./CreateTeamPage.tsx").then((m) => m.CreateTeamPage));
const JoinTeamPage = deferred("features/teams/JoinTeamPage", () => import("./JoinTeamPage.tsx").then((m) => m.JoinTeamPage));
const TeamPage = deferred("features/teams/TeamPage", () => import("./TeamPage.tsx").then((m) => m.TeamPage));
const TeamsListPage = deferred("features/teams/TeamsListPage", () => import("./TeamsListPage.tsx").then((m) => m.TeamsListPage));

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
