/** Business constants from the specs (player spec section 9, staff spec section 9). */
export const LIMITS = {
  username: 36,
  teamName: 36,
  teamSecretMin: 8,
  discord: 36,
  discordId: 18,
  twitter: 36,
  reddit: 36,
  bio: 400,
  passwordStrengthMin: 3,
  totpDigits: 6,
  backupCodeLength: 8,
  backupCodeCount: 10,
  inviteBatchMax: 10_000,
} as const;

/** Personal access tokens last at most a year. */
export const PERSONAL_TOKEN_MAX_DAYS = 365;

export const PAGINATION = { defaultLimit: 100, maxLimit: 1000 } as const;

export const TIMINGS = {
  wsBackoffStartMs: 1000,
  wsBackoffMaxMs: 16_000,
  loadingWarningMs: 5000,
  countdownHintSeconds: 600,
  countdownZeroLoadingMs: 2000,
  popupDismissMs: 10_000,
  leaderboardReloadMs: 10_000,
} as const;

export const DEFAULT_FLAG_PREFIX = "flag";

/** Difficulty label by score: 50 Trivial, 100 Easy, 200 Medium, 500 Hard, 1000 Insane. */
export function difficultyLabel(score: number): string | null {
  if (score >= 1000) return "Insane";
  if (score >= 500) return "Hard";
  if (score >= 200) return "Medium";
  if (score >= 100) return "Easy";
  if (score >= 50) return "Trivial";
  return null;
}

/** Rating: positive votes as a percentage of all votes, rounded to 0.1; null with no votes. */
export function ratingPercent(positive: number, negative: number): number | null {
  const total = positive + negative;
  if (total === 0) return null;
  return Math.round((positive / total) * 1000) / 10;
}

const SIZE_UNITS = ["Bytes", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"] as const;

/** Human-readable file size, Bytes up to YB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${exponent === 0 ? value : value.toFixed(2).replace(/\.?0+$/, "")} ${SIZE_UNITS[exponent]}`;
}

/** Lowercased name with every run of non-alphanumeric characters collapsed to a single dash. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A category or challenge slug: its metadata slug if set, else the name-derived form, else its id. */
export function entitySlug(entity: { id: number; name: string; metadataSlug?: unknown }): string {
  if (typeof entity.metadataSlug === "string" && entity.metadataSlug.length > 0) return entity.metadataSlug;
  return slugify(entity.name) || String(entity.id);
}

/** The kinds of live notification a player can turn on or off. */
export const NOTIFICATION_KINDS = ["all_solves", "flag_reject", "hint_used", "team_join"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
