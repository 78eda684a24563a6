import { createRoute, redirect } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { LoginOnly } from "../teams/guards.tsx";
import "../teams/texts.ts";
import { deferred } from "../../lib/deferred.tsx";

const ProfilePage = deferred("features/profiles/ProfilePage", () => import("./ProfilePage.tsx").then((m) => m.ProfilePage));
const UsersListPage = deferred("features/profiles/UsersListPage", () => import("./UsersListPage.tsx").then((m) => m.UsersListPage));

export const profileRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/profile",
    beforeLoad: () => {
      throw redirect({ to: "/profile/$user", params: { user: "me" }, replace: true });
    },
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/profile/$user",
    component: () => (
      <LoginOnly>
        <ProfilePage />
      </LoginOnly>
    ),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: "/users", component: UsersListPage }),
];
