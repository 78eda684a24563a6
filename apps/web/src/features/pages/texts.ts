import { addTexts } from "../../lib/i18n.ts";

/** English texts of the event's home page. */
export const pagesTexts = {
  home: {
    default_intro: "Welcome to {{event_name}}, a capture-the-flag competition.",
    default_dates_both: "From {{start}} to {{end}}.",
    default_dates_start: "Starts {{start}}.",
    default_dates_end: "Ends {{end}}.",
    default_categories: "Categories",
    not_set: "to be announced",
    starts_in: "Starts in {{time}}",
    ends_in: "Ends in {{time}}",
    ended: "The event has ended.",
    sign_up: "Sign up",
    log_in: "Log in",
    to_challenges: "Go to the challenges",
    to_team: "Your team",
    find_team: "Create or join a team",
    final_board: "Final results",
    leaderboard: "Leaderboard",
    no_categories: "The categories appear here once the challenges are published.",
    challenges_one: "{{count}} challenge",
    challenges_other: "{{count}} challenges",
    categories_label: "Categories",
  },
};

addTexts(pagesTexts);
