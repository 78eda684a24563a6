import { z } from "zod";
import { ZRegisterInput } from "./auth.ts";
import { CONFIG_SCHEMA, ZLogo, ZTheme } from "./config.ts";

/** How players join a freshly set-up event. */
export const REGISTRATION_MODES = ["open", "invite", "sso"] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/**
 * The first-run setup: the event, how players take part, and the first staff account, sent in
 * one go so a half-finished setup never leaves a server with an event but no one to run it.
 */
export const ZSetupInput = z
  .object({
    event_name: CONFIG_SCHEMA.event_name,
    description: z.string().trim().max(10_000).default(""),
    start_time: CONFIG_SCHEMA.start_time,
    end_time: CONFIG_SCHEMA.end_time,
    enable_teams: z.boolean(),
    /** Players per team; 0 means no limit. */
    team_size: CONFIG_SCHEMA.team_size,
    registration: z.enum(REGISTRATION_MODES),
    theme: ZTheme.nullable().default(null),
    logo: ZLogo.default(""),
    username: ZRegisterInput.shape.username,
    email: ZRegisterInput.shape.email,
    password: ZRegisterInput.shape.password,
  })
  .superRefine((value, ctx) => {
    if (value.start_time !== null && value.end_time !== null && value.end_time <= value.start_time) {
      ctx.addIssue({ code: "custom", path: ["end_time"], message: "The end must come after the start." });
    }
  });
export type SetupInput = z.input<typeof ZSetupInput>;

/** The configuration a setup writes: the setup's own keys, the rest keep their defaults. */
export function setupConfig(input: z.output<typeof ZSetupInput>) {
  return {
    event_name: input.event_name,
    start_time: input.start_time,
    end_time: input.end_time,
    enable_teams: input.enable_teams,
    team_size: input.enable_teams ? input.team_size : 0,
    invite_required: input.registration === "invite",
    registration_provider: input.registration === "sso" ? "oidc" : "basic_auth",
    ...(input.theme ? { theme: input.theme } : {}),
    ...(input.logo ? { logo: input.logo } : {}),
  } as const;
}
