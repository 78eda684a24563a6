// Lists about the configuration that hold no schema, apart from config.ts (and zod), so the web
// pages that use them do not load zod.
import type { ConfigKey } from "./config.ts";

/**
 * The login and registration providers the server knows: `basic_auth` (the password screens,
 * named as RACTF's own client registers them; `basic`, our earlier default, is read as that alias)
 * and `oidc` (single sign-on with OpenID Connect). Any other name is refused.
 */
export const LOGIN_PROVIDERS = ["basic_auth", "oidc"] as const;
export type LoginProvider = (typeof LOGIN_PROVIDERS)[number];

/** The keys whose values are event times. */
export const TIME_CONFIG_KEYS: ReadonlySet<ConfigKey> = new Set([
  "register_start_time",
  "register_end_time",
  "start_time",
  "end_time",
  "scoreboard_freeze_time",
]);
