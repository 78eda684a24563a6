import { createRoute, useParams } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { NotFoundPage } from "../../shell/NotFound.tsx";
import { StaffOnly } from "../auth/routes.tsx";
import { ADMIN_PAGES } from "./registry.tsx";

function AdminRoute() {
  const { page } = useParams({ from: "/admin/$page" });
  const entry = ADMIN_PAGES.find((p) => p.page === page);
  const Page = entry?.component ?? NotFoundPage;
  return (
    <StaffOnly>
      <Page />
    </StaffOnly>
  );
}

/** Every admin page at /admin/{page}, from the one list in registry.tsx; staff only. */
export const adminRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/$page", component: AdminRoute }),
  // Deeper admin paths do not exist: staff see 'Page not found', everyone else is sent home.
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin/$",
    component: () => (
      <StaffOnly>
        <NotFoundPage />
      </StaffOnly>
    ),
  }),
] as const;
