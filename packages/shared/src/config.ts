import { z } from "zod";
import { LOGIN_PROVIDERS } from "./config-keys.ts";

/**
 * Every configuration key of the specs, with its type and the default on a fresh server.
 * Times are seconds since the epoch, or null for "no gate".
 */
const time = z.number().int().nonnegative().nullable();
const bool = z.boolean();
const text = z.string().max(10_000);
const provider = z
  .string()
  .transform((name) => (name === "basic" ? "basic_auth" : name))
  .pipe(z.enum(LOGIN_PROVIDERS, { error: `Use one of: ${LOGIN_PROVIDERS.join(", ")} (or basic).` }));
/** An IANA time zone the runtime knows ("Europe/London"); the lock page shows the start in it. */
const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: "Use a time zone name like Europe/London or UTC." },
  );
const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: "Use a colour like #1f6feb." });

/** The theme builder's colours and sidebar style. */
export const THEME_COLOURS = ["primary", "secondary", "success", "info", "warning", "danger", "dark", "light"] as const;
export const SIDEBAR_TYPES = ["light", "dark", "primary"] as const;
export const ZTheme = z.object({
  ...(Object.fromEntries(THEME_COLOURS.map((name) => [name, hexColour])) as Record<(typeof THEME_COLOURS)[number], typeof hexColour>),
  sidebarType: z.enum(SIDEBAR_TYPES),
});
export type Theme = z.infer<typeof ZTheme>;

/** The largest event logo, in bytes of the image itself (its data URL is a third longer). */
export const LOGO_MAX_BYTES = 100 * 1024;
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp", "image/svg+xml"] as const;
/** The event's logo as a data URL of one of LOGO_TYPES, or "" for Flagship's own mark. */
export const ZLogo = z.union([
  z.literal(""),
  z
    .string()
    .max(Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 32, { message: `The logo may be at most ${LOGO_MAX_BYTES / 1024} KiB.` })
    .regex(/^data:image\/(png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/, { message: "Use a PNG, JPEG, WebP or SVG image." }),
]);

export const CONFIG_SCHEMA = {
  register_start_time: time,
  register_end_time: time,
  start_time: time,
  end_time: time,
  scoreboard_freeze_time: time,
  /** The event's own time zone: pages give its times in the player's zone and in this one. */
  event_timezone: timeZone,
  enable_force_admin_2fa: bool,
  enable_maintenance_mode: bool,
  flag_prefix: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/),
  event_name: z.string().min(1).max(200),
  email_domain: text,
  email_regex: text,
  invite_required: bool,
  enable_flag_submission: bool,
  enable_login: bool,
  /** Players may log in before the start (to form teams and read the rules), as upstream RACTF. */
  enable_prelogin: bool,
  enable_registration: bool,
  enable_flag_submission_after_competition: bool,
  enable_view_challenges_after_competion: bool,
  enable_scoreboard: bool,
  enable_scoring: bool,
  enable_solve_broadcast: bool,
  enable_team_join: bool,
  enable_team_leave: bool,
  enable_challenge_server: bool,
  challenge_server_instance_limit: z.number().int().min(0).max(1000),
  enable_teams: bool,
  team_size: z.number().int().min(0).max(100_000),
  enable_ctftime: bool,
  login_provider: provider,
  registration_provider: provider,
  firstblood_webhook: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]),
  experiments: z.record(z.string().max(64), z.boolean()),
  /** Seconds within which two teams sending the same wrong flag is recorded as suspected sharing; 0 is off. */
  sharing_wrong_flag_window: z.number().int().min(0).max(86_400),
  /** The event's theme from the theme builder; null keeps the built-in light and dark palettes. */
  theme: ZTheme.nullable(),
  /** The event's logo (served at /logo, not listed with the rest: it is the one large value). */
  logo: ZLogo,
} as const;

export type ConfigKey = keyof typeof CONFIG_SCHEMA;
export type Config = { [K in ConfigKey]: z.infer<(typeof CONFIG_SCHEMA)[K]> };

export const CONFIG_DEFAULTS: Config = {
  register_start_time: null,
  register_end_time: null,
  start_time: null,
  end_time: null,
  scoreboard_freeze_time: null,
  event_timezone: "UTC",
  enable_force_admin_2fa: false,
  enable_maintenance_mode: false,
  flag_prefix: "flag",
  event_name: "Flagship CTF",
  email_domain: "",
  email_regex: "",
  invite_required: false,
  enable_flag_submission: true,
  enable_login: true,
  enable_prelogin: true,
  enable_registration: true,
  enable_flag_submission_after_competition: false,
  enable_view_challenges_after_competion: true,
  enable_scoreboard: true,
  enable_scoring: true,
  enable_solve_broadcast: true,
  enable_team_join: true,
  enable_team_leave: false,
  enable_challenge_server: true,
  challenge_server_instance_limit: 3,
  enable_teams: true,
  team_size: 0,
  enable_ctftime: true,
  login_provider: "basic_auth",
  registration_provider: "basic_auth",
  firstblood_webhook: "",
  experiments: {},
  sharing_wrong_flag_window: 0,
  theme: null,
  logo: "",
};

export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA) as ConfigKey[];

/** Keys read on their own rather than in the configuration list (the logo, at /logo). */
export const UNLISTED_CONFIG_KEYS: ReadonlySet<ConfigKey> = new Set(["logo"]);

/** Keys only staff may read. */
export const STAFF_ONLY_CONFIG_KEYS: ReadonlySet<ConfigKey> = new Set([
  "firstblood_webhook",
  "enable_force_admin_2fa",
  "sharing_wrong_flag_window",
]);

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_SCHEMA, key);
}

export const ZConfigKey = z.string().refine(isConfigKey, { message: "Unknown config key" });

export const ZSetConfigInput = z.object({
  key: z.string().min(1).max(100),
  value: z.unknown(),
});
export type SetConfigInput = z.infer<typeof ZSetConfigInput>;

/** Validates a value for a key; time keys also accept null (unset). */
export function parseConfigValue<K extends ConfigKey>(key: K, value: unknown): Config[K] {
  return CONFIG_SCHEMA[key].parse(value) as Config[K];
}
