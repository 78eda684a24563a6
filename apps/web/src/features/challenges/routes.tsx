import "./challenges.css";
import "./texts.ts";
import "./builtins.tsx";
import { createRoute } from "@tanstack/react-router";
import { rootRoute } from "../../router.tsx";
import { LoginOnly } from "../teams/guards.tsx";
import { EventGate } from "./EventGate.tsx";
import { NewCategoryPage } from "../authoring/lazy.tsx";
import { deferred } from "../../lib/deferred.tsx";

const CampaignPage = deferred("features/challenges/CampaignPage", () => import("./CampaignPage.tsx").then((m) => m.CampaignPage));
const CategoryPage = deferred("features/challenges/pages", () => import("./pages.tsx").then((m) => m.CategoryPage));
const ChallengePage = deferred("features/challenges/pages", () => import("./pages.tsx").then((m) => m.ChallengePage));

function gated(Page: React.ComponentType) {
  return function Gated() {
    return (
      <LoginOnly>
        <EventGate>
          <Page />
        </EventGate>
      </LoginOnly>
    );
  };
}

export const challengeRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/campaign", component: gated(CampaignPage) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/campaign/new", component: gated(() => <NewCategoryPage />) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/campaign/$tabId", component: gated(CategoryPage) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/campaign/$tabId/$chalId", component: gated(ChallengePage) }),
];
