import { addTexts } from "../lib/i18n.ts";

/** The notice area's and the "view as a player" switch's texts. */
addTexts({
  notices: {
    label: "Notices",
    view_as_player: "View as a player",
    view_as_staff: "Back to the staff view",
    previewing: "You're viewing the event as a player sees it.",
  },
});
