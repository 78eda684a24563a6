import { ERRORS } from "@flagship/shared";
import i18next from "i18next";
import { createContext, createElement, type ReactNode, useContext } from "react";
import { initReactI18next, useTranslation as useLibraryTranslation } from "react-i18next";

const errors = Object.fromEntries(Object.entries(ERRORS).map(([code, def]) => [code, def.message]));

/** English texts, keyed as the specs name them ('auth.no_email' and the rest). */
export const en = {
  errors,
  generic: {
    unknown: "Unknown error occurred.",
    network: "Network request failed",
    timeout: "Network request timed out",
    throttled: "You are being rate-limited.",
    malformed: "Malformed request.",
    something_wrong: "Something went wrong",
    page_failed: "This page failed to load.",
    required: "This field is required",
    not_found: "Page not found",
    not_found_body: "The page you were looking for doesn't exist or has moved.",
    back_home: "Take me home",
    loading: "Loading...",
    loading_slow: "This is taking longer than expected. Check your connection, or try reloading the page.",
    copy: "Copy",
    copied: "Copied",
    close: "Close",
    view_details: "View details",
    hide_details: "Hide details",
    reload: "Reload",
    retry: "Try again",
    missing_renderer: "No renderer is installed for the {{kind}} type '{{type}}'.",
    plugin_hint: "Did you forget to install a plugin?",
    logged_out_error:
      "Something went wrong loading the site. You have been logged out. If this persists, please contact an admin.",
  },
  auth: {
    no_username: "No username provided",
    no_password: "No password provided",
    no_email: "No email provided",
    inv_email: "Invalid email",
    pass_weak: "Password too weak",
    pass_match: "Passwords must match",
    no_invite: "No invite code provided",
    no_accept: "You must accept the terms of use and privacy policy to register.",
  },
  "2fa": {
    validation_fail: "That code was not valid. Check your device's clock and try again.",
    unable_to_active: "Unable to enable two-factor authentication.",
    remove_failed: "Unable to remove two-factor authentication.",
  },
  lists: {
    paginated_error: "This list failed to load.",
  },
  challenge: {
    no_name: "Name is required",
    invalid_cat: "Type must be one of: {{types}}",
  },
  nav: {
    home: "Home",
    users: "Users",
    teams: "Teams",
    leaderboard: "Leaderboard",
    challenges: "Challenges",
    show_categories: "{{label}}: show the categories",
    hide_categories: "{{label}}: hide the categories",
    categories_menu: "{{label}} by category",
    profile: "Profile",
    team: "Team",
    settings: "Settings",
    logout: "Log out",
    login: "Log in",
    register: "Register",
    admin: "Admin",
    privacy: "Privacy",
    terms: "Terms",
    conduct: "Code of Conduct",
    menu: "Menu",
    your_account: "Your account",
    toggle_theme: "Toggle dark mode",
    main_navigation: "Main navigation",
    skip_to_content: "Skip to content",
    navigated_to: "{{title}} page",
    points: "{{points}} points",
    team_points: "Your team's points",
  },
  admin: {
    config: "Configuration",
    announcements: "Announcements",
    cms: "Pages",
    invites: "Invites",
    statistics: "Statistics",
    members: "Members",
    teams: "Teams",
    audit_log: "Audit Log",
    submissions: "Submissions",
    allChallenges: "Challenge Overview",
    port: "Import/Export",
    check: "Pre-Event Check",
    jobs: "Challenge Servers",
    leaderboard_groups: "Leaderboard Groups",
    scoreboard: "Scoreboard",
    theme: "Theme",
    projector: "Projector Board",
  },
  realtime: {
    lost: "Lost connection. Reconnecting in {{seconds}}s...",
    announcements: "Announcements",
    hide_announcement: "Hide announcement",
    solve_title: "Challenge solved",
    solve: "{{username}} ({{team}}) solved {{challenge}}",
    reject_title: "Incorrect flag",
    reject: "{{username}} submitted an incorrect flag for {{challenge}}",
    hint_title: "Hint used",
    hint: "{{username}} used the hint '{{hint}}' on {{challenge}}",
    join_title: "New team member",
    join: "{{username}} joined {{team}}",
  },
  countdown: {
    starts_in: "Starts in",
    ends_in: "Ends in",
    hint_start: "The event starts in under ten minutes. Get ready!",
    hint_end: "Under ten minutes left: submit your flags!",
    loading: "Loading...",
    ended: "Event over",
  },
  leaderboard: {
    projector_link: "Projector view",
    title: "Leaderboard",
    teams: "Teams",
    users: "Users",
    team: "Team",
    user: "Name",
    place: "Place",
    points: "Points",
    load_more: "Load more",
    empty: "Nobody has scored yet.",
    hidden: "The scoreboard is hidden.",
    graph_label: "Score over time of the top ten",
    medal_gold: "Gold",
    medal_silver: "Silver",
    medal_bronze: "Bronze",
  },
  pages: {
    conduct: "Code of Conduct",
    privacy: "Privacy Policy",
    terms: "Terms of Use",
    not_set: "This page has not been set yet. The organisers will publish it here.",
  },
  debug: {
    title: "Diagnostics",
    intro: "Pages that show what the app sees, for organisers and developers.",
    theme: "Theme",
    state: "State",
    ws: "Websocket",
    ui: "Components",
    loading: "Loading screen",
    experiments: "Experiments",
    scheme: "Colour scheme in use: {{scheme}}",
    connected: "Connected",
    disconnected: "Disconnected",
    cooldown: "Back-off {{cooldown}} ms, next attempt in {{timer}} s",
    no_events: "No events received yet.",
    no_experiments: "No experiments are set.",
    show_popup: "Show a popup",
  },
  footer: {
    copyright: "© {{years}} {{event}}",
  },
};

type Texts = { [key: string]: string | readonly string[] | Texts };

/**
 * The app's texts through i18next: one language (English), keys as dot paths ('auth.no_email'),
 * `{{name}}` filled from the option of that name (unescaped: React escapes text), plural forms
 * by count (`_one`, `_other`, by the language's plural rules) falling back to the key itself.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: "en",
  fallbackLng: false,
  resources: { en: { translation: en } },
  // The texts are in the bundle: initialised at once, so the first render has them.
  initAsync: false,
  // No notice of the library's vendor in the console (or in the server's log, where pages are drawn).
  showSupportNotice: false,
  interpolation: { escapeValue: false },
  // A value the options lack is drawn as nothing, never as its placeholder.
  missingInterpolationHandler: () => "",
  // A list asked for as a string gives its key, as a missing text does.
  returnedObjectHandler: (key) => key,
});

/** Adds a feature's texts (its module calls this when it loads); keys already there keep their text. */
export function addTexts(more: Texts): void {
  i18n.addResourceBundle("en", "translation", more, true, false);
}

export { Trans } from "react-i18next";

type Translation = ReturnType<typeof useLibraryTranslation>;

const TranslationContext = createContext<Translation | null>(null);

/**
 * The app's texts for every component below (App puts it at the root): react-i18next's hook runs
 * here once and its answer is shared, following a change of language as the hook does. Called in
 * each of a page's hundreds of components, the hook costs each its own subscription, fixed `t` and
 * a copy of the i18n instance's properties as they mount: a large share of drawing a page on the
 * server and of hydrating it on a phone.
 */
export function TranslationProvider({ children }: { children: ReactNode }) {
  const translation = useLibraryTranslation();
  return createElement(TranslationContext.Provider, { value: translation }, children);
}

/**
 * Outside the provider (the toasts' own root): the instance's texts as they are. The app has one
 * language, bundled, so they are what the hook would give.
 */
const fixedT = i18n.getFixedT(null, "translation") as unknown as Translation["t"];
const UNPROVIDED = Object.assign([fixedT, i18n, true] as const, { t: fixedT, i18n, ready: true }) as unknown as Translation;

/** `{ t, i18n, ready }` (and `[t, i18n, ready]`), as react-i18next's hook gives them, from the app's TranslationProvider. */
export function useTranslation(): Translation {
  return useContext(TranslationContext) ?? UNPROVIDED;
}
