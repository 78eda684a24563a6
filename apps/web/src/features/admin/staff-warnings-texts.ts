import { addTexts } from "../../lib/i18n.ts";

/** The staff warnings' texts: the one part of the staff console every page's shell draws. */
addTexts({
  staff_warnings: {
    label: "Staff warnings",
    hide: "Hide: {{warning}}",
    scoring_disabled: "Scoring is disabled while the event is running: solves score no points.",
    flag_submission_disabled: "Flag submission is disabled while the event is running.",
    maintenance: "Maintenance mode is on.",
    challenges_locked: "Challenges are locked for players until the event starts.",
    registration_locked: "Registration is closed: nobody can sign up.",
    countdown_start: "The event starts in {{time}}.",
    countdown_end: "The event ends in {{time}}.",
    tab_scoring_disabled: "Scoring off",
    tab_flag_submission_disabled: "Flags off",
    tab_maintenance: "Maintenance",
    tab_challenges_locked: "Challenges locked",
    tab_registration_locked: "Registration locked",
    tab_countdown: "Countdown",
  },
});
