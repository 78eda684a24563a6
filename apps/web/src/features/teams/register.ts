import { registerSettingsCard, SETTINGS_ORDER } from "../auth/settings/registry.ts";
import { registerWelcomeOffer } from "../auth/WelcomePage.tsx";
import { deferred } from "../../lib/deferred.tsx";

const TeamSettingsCard = deferred("features/teams/TeamSettingsCards", () => import("./TeamSettingsCards.tsx").then((m) => m.TeamSettingsCard));
const TeamMembersSettingsCard = deferred("features/teams/TeamSettingsCards", () => import("./TeamSettingsCards.tsx").then((m) => m.TeamMembersSettingsCard));
const WelcomeTeamOffer = deferred("features/teams/WelcomeTeamOffer", () => import("./WelcomeTeamOffer.tsx").then((m) => m.WelcomeTeamOffer));

// The settings page and the welcome page belong to the account feature; teams plug into them.
registerSettingsCard({ id: "team", order: SETTINGS_ORDER.team, Component: TeamSettingsCard });
registerSettingsCard({ id: "members", order: SETTINGS_ORDER.members, Component: TeamMembersSettingsCard });
registerWelcomeOffer(WelcomeTeamOffer);
