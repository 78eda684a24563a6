import { ERRORS } from "@flagship/shared";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";

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
    toggle_theme: "Toggle dark mode",
    main_navigation: "Main navigation",
    skip_to_content: "Skip to content",
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
    allChallenges: "Challenge Overview",
    port: "Import/Export",
    check: "Pre-Event Check",
  },
  home: {
    tagline: "A capture-the-flag competition",
    intro:
      "Test yourself across the disciplines of cyber security: open-source intelligence, cryptography, web vulnerabilities, binary exploitation and Linux security. Form a team, solve challenges, capture flags and climb the leaderboard.",
    get_started: "Get started",
    topics: {
      osint: "Open-source intelligence",
      crypto: "Cryptography",
      web: "Web vulnerabilities",
      pwn: "Binary exploitation",
      linux: "Linux security",
    },
  },
  footer: {
    copyright: "© 2021 - {{year}} {{event}}",
  },
};

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: "en",
  fallbackLng: "en",
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18next;
