import { settingLabel } from "./setting-label.ts";
import "./audit-texts.ts";

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What the sentence is made from: an audit entry with the names of what it refers to (from the server). */
export interface WordedEntry {
  action: string;
  extra: unknown;
  names?: { team?: string; user?: string; challenge?: string; category?: string; subject?: string; owner?: string };
}

// Numbers in this range are read as Unix times (seconds 2000-2100, or the same in milliseconds).
const SECONDS = [946_684_800, 4_102_444_800] as const;

/** One stored value, readable: a Unix time as a date, lists and objects as short JSON. */
export function detailValue(value: unknown): string {
  if (typeof value === "number") {
    if (value >= SECONDS[0] && value < SECONDS[1]) return new Date(value * 1000).toLocaleString();
    if (value >= SECONDS[0] * 1000 && value < SECONDS[1] * 1000) return new Date(value).toLocaleString();
    return String(value);
  }
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value === "" ? '""' : value;
  if (typeof value === "boolean") return value ? "true" : "false";
  return JSON.stringify(value);
}

const short = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A setting's new value in a sentence: on or off, not set, a date, or the value itself (shortened). */
function settingValue(t: Translate, value: unknown): string {
  if (typeof value === "boolean") return t(value ? "audit_words.on" : "audit_words.off");
  if (value === null || value === undefined || value === "") return t("audit_words.not_set");
  if (typeof value === "string") return `“${short(value)}”`;
  return short(detailValue(value));
}

const bytes = (size: unknown): string => {
  if (typeof size !== "number") return "—";
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
};

/** A count from a number or a list of ids. */
const countOf = (value: unknown): number => (typeof value === "number" ? value : Array.isArray(value) ? value.length : 0);

/** A field name as words: 'challenge_metadata' is 'challenge metadata'. */
const fieldWords = (field: string) => field.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** The fields an update changed: its field list, or the keys of its changes. */
function changedFields(extra: Record<string, unknown>): string[] {
  if (Array.isArray(extra.fields)) return extra.fields.filter((f): f is string => typeof f === "string");
  if (extra.changes && typeof extra.changes === "object" && !Array.isArray(extra.changes)) return Object.keys(extra.changes);
  return [];
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const ref = (value: unknown): string | undefined => (typeof value === "number" ? `#${value}` : undefined);

/** Sentences that end with the list of fields changed. */
const UPDATES = new Set(["update_page", "update_category", "update_challenge", "update_hint", "update_file", "edit_leaderboard_group", "edit_member", "edit_team"]);
/** Sentences with a count of things ({{count}}), and where in the details it is. */
const COUNTED: Record<string, string> = {
  delete_category: "challenges",
  import_category: "challenges",
  drain_challenge_server_worker: "instances",
  generate_invites: "amount",
  import_ctfd: "challenges",
  import_event: "challenges",
  export_event: "challenges",
  sign_in_throttled: "failures",
};

/**
 * An audit entry as a sentence, its actor aside: "Changed challenge Web 1: name, points",
 * "Gave 150 points to team Foo: Bug bounty". Names are the server's (as they are now), else the
 * name the entry recorded, else the record's number; an action without a sentence is named by its code.
 */
export function auditSentence(t: Translate, entry: WordedEntry): string {
  const extra = entry.extra && typeof entry.extra === "object" && !Array.isArray(entry.extra) ? (entry.extra as Record<string, unknown>) : {};
  const names = entry.names ?? {};
  const team = names.team ?? text(extra.team_name) ?? (entry.action === "delete_team" ? text(extra.name) : undefined) ?? ref(extra.team) ?? "—";
  const user = names.user ?? text(extra.username) ?? text(extra.target_username) ?? ref(extra.user) ?? ref(extra.target_id) ?? "—";
  const values: Record<string, unknown> = {
    subject: names.subject ?? text(extra.name) ?? text(extra.title) ?? (text(extra.url) ? `/${String(extra.url)}` : undefined) ?? ref(extra.id) ?? "—",
    team,
    user,
    owner: names.owner ?? ref(extra.new) ?? "—",
    challenge: names.challenge ?? text(extra.challenge_name) ?? ref(extra.challenge) ?? "—",
    category: names.category ?? ref(extra.category) ?? "—",
    issuer: text(extra.issuer) ?? "—",
    reason: text(extra.reason) ?? "—",
    size: bytes(extra.size),
  };
  let key = entry.action;
  switch (entry.action) {
    case "set_config": {
      const setting = text(extra.key) ?? "—";
      values.setting = settingLabel(t as (key: string, options?: { defaultValue?: string }) => string, setting) ?? setting;
      values.value = settingValue(t, extra.new_value);
      break;
    }
    case "upload_file":
      values.subject = text(extra.name) ?? text(extra.key) ?? "—";
      break;
    case "give_award":
    case "remove_award": {
      const points = typeof extra.points === "number" ? extra.points : 0;
      values.points = Math.abs(points);
      values.who = extra.user !== null && extra.user !== undefined ? t("audit_words.who_player", { name: user }) : t("audit_words.who_team", { name: team });
      if (points < 0) key = entry.action === "give_award" ? "give_penalty" : "remove_penalty";
      break;
    }
    case "mark_solved":
      if (extra.first_blood === true) key = "mark_solved_first_blood";
      break;
  }
  if (entry.action in COUNTED) values.count = countOf(extra[COUNTED[entry.action]!]);
  const sentence = t(`audit_words.${key}`, { ...values, defaultValue: "" });
  if (!sentence) return t("audit_words.unknown", { action: entry.action });
  const fields = UPDATES.has(entry.action) ? changedFields(extra).map(fieldWords) : [];
  return fields.length > 0 ? `${sentence}: ${fields.join(", ")}` : sentence;
}
