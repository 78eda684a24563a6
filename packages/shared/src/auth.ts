import { z } from "zod";
import { LIMITS, PERSONAL_TOKEN_MAX_DAYS } from "./constants.ts";
import { isEmailShaped } from "./email.ts";

/**
 * Account input schemas, shared by the server (both transports) and the web forms. Field-level
 * messages are the specs' own where the specs give one.
 */

const requiredText = (max?: number) => {
  const base = z.string().trim().min(1);
  return max ? base.max(max) : base;
};

/** Passwords are never trimmed: spaces are part of the secret. */
const password = z.string().min(1).max(1024);

// Control characters would make a name that cannot be typed or shown.
export const ZUsername = requiredText(LIMITS.username).refine((v) => !/\p{Cc}/u.test(v), "Invalid username.");

export const ZRegisterInput = z.object({
  username: ZUsername,
  email: z.string().trim().min(1).max(254).refine(isEmailShaped, "Invalid email"),
  password,
  password2: z.string().max(1024).optional(),
  invite: z.string().trim().max(128).optional().nullable(),
  accept: z.boolean().optional(),
});
export type RegisterInput = z.infer<typeof ZRegisterInput>;

export const ZLoginInput = z.object({
  username: requiredText(254),
  password,
});
export type LoginInput = z.infer<typeof ZLoginInput>;

export const ZLogin2faInput = ZLoginInput.extend({ tfa: z.string().trim().min(1).max(16) });
export type Login2faInput = z.infer<typeof ZLogin2faInput>;

export const ZOtpInput = z.object({ otp: z.string().trim().min(1).max(16) });
export type OtpInput = z.infer<typeof ZOtpInput>;

export const ZChangePasswordInput = z.object({ old_password: password, password });
export type ChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

export const ZEmailInput = z.object({ email: z.string().trim().min(1).max(254) });
export type EmailInput = z.infer<typeof ZEmailInput>;

/**
 * `uid` and `token` from a mailed link (`?id=&secret=` on the web pages). `uid` is taken as sent:
 * one that names no account, a number or not, is a bad link (404 invalid_token_or_uid, see
 * linkUserId), not a malformed request.
 */
export const ZEmailTokenInput = z.object({
  // NaN too: the web pages send Number() of the link's text.
  uid: z.union([z.number(), z.nan(), z.string().max(64)]),
  token: z.string().trim().min(1).max(256),
});
export type EmailTokenInput = z.infer<typeof ZEmailTokenInput>;

/** The account id a link's `uid` names, or null when it cannot name one (not a positive int4). */
export function linkUserId(uid: number | string): number | null {
  const text = typeof uid === "number" ? String(uid) : uid.trim();
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

export const ZPasswordResetInput = ZEmailTokenInput.extend({ password });
export type PasswordResetInput = z.infer<typeof ZPasswordResetInput>;

export const ZSudoInput = z.object({ id: z.number().int().positive() });
export type SudoInput = z.infer<typeof ZSudoInput>;

/**
 * Own profile edits (PATCH /member/self/): every field optional, limits from the specs. Other keys
 * are dropped, not refused: older clients send the whole profile back, read-only fields included.
 */
export const ZUpdateSelfInput = z
  .object({
    username: ZUsername,
    discord: z.string().trim().max(LIMITS.discord),
    discordid: z
      .string()
      .trim()
      .max(LIMITS.discordId)
      .refine((v) => v === "" || /^\d+$/.test(v), "A Discord ID is made of digits only."),
    twitter: z.string().trim().max(LIMITS.twitter),
    reddit: z.string().trim().max(LIMITS.reddit),
    bio: z.string().max(LIMITS.bio),
  })
  .partial()
  .strip();
export type UpdateSelfInput = z.infer<typeof ZUpdateSelfInput>;

export const ZNotificationPreferences = z.object({
  all_solves: z.boolean(),
  flag_reject: z.boolean(),
  hint_used: z.boolean(),
  team_join: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof ZNotificationPreferences>;
export const ZUpdateNotificationPreferences = ZNotificationPreferences.partial();

export const ZDeleteAccountInput = z.object({ password });
export type DeleteAccountInput = z.infer<typeof ZDeleteAccountInput>;

export const ZGenerateInvitesInput = z.object({
  amount: z.number().int().min(1).max(LIMITS.inviteBatchMax),
  max_uses: z.number().int().min(1).max(1_000_000).optional(),
  auto_team: z.number().int().positive().optional().nullable(),
});
export type GenerateInvitesInput = z.infer<typeof ZGenerateInvitesInput>;

/** A 2FA entry at login: 6 characters is a TOTP code, 8 a backup code. */
export function twoFactorKind(code: string): "totp" | "backup" | null {
  const trimmed = code.replace(/\s+/g, "");
  if (trimmed.length === LIMITS.totpDigits && /^\d+$/.test(trimmed)) return "totp";
  if (trimmed.length === LIMITS.backupCodeLength) return "backup";
  return null;
}

/** The TOTP secret as the wizard shows it: groups of 4 characters. */
export function groupSecret(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(" ");
}

/** Throttle scopes and their default rates (the contract's upstream defaults). */
export const THROTTLE_DEFAULTS = {
  login: "5/min",
  register: "10/min",
  // Wrong team passwords, per account and per team (see Throttle.guess).
  team_join: "10/min",
  "2fa": "1000/day",
  // Wrong passwords per account, from any address, and wrong 2FA or backup codes per account:
  // blocks after these double up to a few minutes (see ACCOUNT_MAX_BLOCK_SECONDS in the API).
  login_account: "5/min",
  "2fa_account": "5/min",
  password_reset: "3/min",
  request_password_reset: "5/hour",
  resend_verify_email: "5/hour",
  verify_email: "3/min",
  change_password: "10/min",
  flag_submit: "10/min",
  use_hint: "3/min",
  leaderboard: "5/min",
} as const;
export type ThrottleScope = keyof typeof THROTTLE_DEFAULTS | (string & {});

const PERIODS: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hour: 3600, d: 86_400, day: 86_400 };

/** Parses "5/min", "1000/day", "3/10s" into a count per window of seconds; null when malformed. */
export function parseRate(rate: string): { limit: number; windowSeconds: number } | null {
  const match = /^\s*(\d+)\s*\/\s*(\d*)\s*([a-z]+)\s*$/i.exec(rate);
  if (!match) return null;
  const unit = PERIODS[match[3]!.toLowerCase()];
  if (unit === undefined) return null;
  const multiplier = match[2] ? Number(match[2]) : 1;
  if (multiplier < 1) return null;
  return { limit: Number(match[1]), windowSeconds: unit * multiplier };
}

/** "login=20/min,register=100/min" over the defaults; unknown or malformed entries are errors. */
export function parseThrottleRates(spec: string | undefined): Record<string, { limit: number; windowSeconds: number }> {
  const rates: Record<string, { limit: number; windowSeconds: number }> = {};
  for (const [scope, rate] of Object.entries(THROTTLE_DEFAULTS)) rates[scope] = parseRate(rate)!;
  for (const entry of (spec ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [scope, rate] = entry.split("=").map((s) => s.trim());
    const parsed = rate ? parseRate(rate) : null;
    if (!scope || !parsed) throw new Error(`Invalid throttle rate "${entry}": expected scope=count/period, e.g. login=5/min`);
    rates[scope] = parsed;
  }
  return rates;
}

/** Personal access tokens: staff name one and choose how many days it lasts (at most a year). */
export const ZCreatePersonalTokenInput = z.object({
  name: z.string().trim().min(1).max(64),
  expires_in_days: z.number().int().min(1).max(PERSONAL_TOKEN_MAX_DAYS),
});
export type CreatePersonalTokenInput = z.infer<typeof ZCreatePersonalTokenInput>;
