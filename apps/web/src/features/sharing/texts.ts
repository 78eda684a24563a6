import { addTexts } from "../../lib/i18n.ts";

/** English texts of per-team flags and the suspected-sharing page. */
export const sharingTexts = {
  sharing: {
    page: "Suspected sharing",
    intro: "Incidents where a team sent another team's own flag for a per-team (dynamic) challenge, or the same wrong flag as another team shortly after it. Look at the evidence, then disqualify a team to hide it from the boards.",
    empty: "No suspected sharing so far.",
    count_one: "{{count}} incident",
    count_other: "{{count}} incidents",
    time: "Time",
    challenge: "Challenge",
    submitted_by: "Submitted by",
    flag_of: "Flag of",
    same_as: "Same wrong flag as",
    evidence: "Evidence",
    kind_team_flag: "Another team's flag",
    kind_same_wrong_flag: "Same wrong flag",
    flag: "Flag",
    ip: "Address",
    other_ips: "Their addresses",
    none: "none recorded",
    disqualify: "Disqualify {{team}}",
    disqualified: "Disqualified",
    disqualify_title: "Disqualify {{team}}?",
    disqualify_body: "The team is hidden from the scoreboards. You can show it again from the team's admin page.",
    disqualify_confirm: "Disqualify",
    disqualified_toast: "{{team}} is disqualified.",
    disqualify_failed: "Could not disqualify the team:",
    live_title: "Suspected flag sharing",
    live_team_flag: "{{team}} sent the flag of {{other}} for {{challenge}}.",
    live_same_wrong_flag: "{{team}} sent the same wrong flag as {{other}} for {{challenge}}.",
    dynamic_help: "Each team gets its own flag, derived from this secret (at least 16 characters); leave it empty and one is generated when you save. Your challenge server hands each team its flag.",
    secret: "Secret",
    lookup_title: "A team's flag",
    lookup_team: "Team",
    lookup_placeholder: "Search teams",
    lookup_show: "Show flag",
    lookup_failed: "Could not look up the flag:",
  },
};

addTexts(sharingTexts);
