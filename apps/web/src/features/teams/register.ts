import { registerSettingsCard, SETTINGS_ORDER } from "../auth/settings/registry.ts";
import { registerWelcomeOffer } from "../auth/WelcomePage.tsx";
import { TeamMembersSettingsCard, TeamSettingsCard } from "./TeamSettingsCards.tsx";
import { WelcomeTeamOffer } from "./WelcomeTeamOffer.tsx";

// The settings page and the welcome page belong to the account feature; teams plug into them.
registerSettingsCard({ id: "team", order: SETTINGS_ORDER.team, Component: TeamSettingsCard });
registerSettingsCard({ id: "members", order: SETTINGS_ORDER.members, Component: TeamMembersSettingsCard });
registerWelcomeOffer(WelcomeTeamOffer);
