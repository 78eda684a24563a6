import { LIMITS } from "./constants.ts";
import { escapeRegex } from "./flag-format.ts";
import { MAX_FLAG_REGEX_LENGTH, regexSafetyError } from "./flags.ts";
import { validateChallengeData, type CategoryData } from "./port.ts";

/**
 * Migration from CTFd: what an export archive's tables (`db/*.json`, each `{count, results, meta}`)
 * become here, and a report of what does not map and why. Pure: the server reads the archive,
 * calls this, and writes what it answers (see the server's CTFd import).
 */

export type CtfdRow = Record<string, unknown>;

/** The tables of a CTFd export this import reads; a table missing from the archive is empty. */
export const CTFD_TABLES = [
  "alembic_version",
  "challenges",
  "dynamic_challenge",
  "flags",
  "hints",
  "tags",
  "files",
  "users",
  "teams",
  "solves",
  "submissions",
  "awards",
  "unlocks",
  "config",
] as const;
export type CtfdTableName = (typeof CTFD_TABLES)[number];
export type CtfdTables = Record<CtfdTableName, CtfdRow[]>;

export type CtfdSkipKind = "challenge" | "flag" | "hint" | "tag" | "file" | "prerequisite" | "next challenge" | "user" | "team" | "solve" | "award" | "hint unlock" | "setting";

/** Things of one kind left out for one reason: how many, and the first few by name. */
export interface CtfdSkipped {
  kind: CtfdSkipKind;
  reason: string;
  count: number;
  examples: string[];
}

export interface CtfdReport {
  /** "teams" when the CTFd event was played in teams, "users" when every player played alone. */
  mode: "teams" | "users";
  players: boolean;
  mapped: {
    categories: number;
    challenges: number;
    hidden: number;
    flags: number;
    regex: number;
    hints: number;
    tags: number;
    files: number;
    prerequisites: number;
    decay: number;
    users: number;
    teams: number;
    solves: number;
  };
  skipped: CtfdSkipped[];
  /** What maps with a change the organiser should know about. */
  notes: string[];
}

/** A challenge file to copy from the archive (`uploads/{location}`). */
export interface CtfdFile {
  challenge: number;
  location: string;
  name: string;
}

export interface CtfdUser {
  /** The CTFd id. */
  id: number;
  username: string;
  email: string;
  hidden: boolean;
  banned: boolean;
  verified: boolean;
  /** The CTFd team id, or in user mode the player's own team (same id as the user). */
  team: number | null;
  joined: Date | null;
}

export interface CtfdTeam {
  /** The CTFd team id (in user mode, the player's id). */
  id: number;
  name: string;
  hidden: boolean;
  captain: number | null;
  created: Date | null;
}

export interface CtfdSolve {
  challenge: number;
  user: number;
  team: number;
  at: Date | null;
}

export interface CtfdMapping {
  /** Categories with their challenges under CTFd's ids (unlocks refer to those); files are added by the importer. */
  categories: CategoryData[];
  files: CtfdFile[];
  users: CtfdUser[];
  teams: CtfdTeam[];
  /** In the order they were made, so first bloods and decay come out as they did. */
  solves: CtfdSolve[];
  report: CtfdReport;
}

export interface CtfdMapOptions {
  /** Import users, teams and solves as well as the challenges. */
  players: boolean;
  /** Locations (`{folder}/{name}`) of the files present under `uploads/` in the archive. */
  uploads: ReadonlySet<string>;
  /** Usernames, emails and team names already taken here (lower-cased). */
  taken?: { usernames: ReadonlySet<string>; emails: ReadonlySet<string>; teams: ReadonlySet<string> };
}

const EXAMPLES = 5;

function text(row: CtfdRow, key: string): string {
  const value = row[key];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

function int(row: CtfdRow, key: string): number | null {
  const value = row[key];
  const n = typeof value === "number" ? value : typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

function flag(row: CtfdRow, key: string): boolean {
  const value = row[key];
  return value === true || value === 1 || value === "1" || value === "true";
}

function date(row: CtfdRow, key: string): Date | null {
  const value = row[key];
  if (typeof value !== "string" || value === "") return null;
  // CTFd writes naive UTC times (isoformat without an offset).
  const parsed = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** CTFd keeps requirements as JSON, or as a JSON string in older exports. */
function requirementsOf(value: unknown): { prerequisites?: unknown; anonymize?: unknown } | null {
  let parsed = value;
  if (typeof parsed === "string") {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return null;
    }
  }
  return typeof parsed === "object" && parsed !== null ? (parsed as { prerequisites?: unknown; anonymize?: unknown }) : null;
}

function prerequisitesOf(value: unknown): number[] {
  const list = requirementsOf(value)?.prerequisites;
  return Array.isArray(list) ? list.filter((id): id is number => Number.isSafeInteger(id)) : [];
}

export type CtfdFlagInput = { type: string; content: string; caseInsensitive: boolean };

/**
 * A challenge's CTFd flags as one flag here. One case-sensitive static flag stays plaintext;
 * anything else (case-insensitive, regex, several flags) becomes one RE2 pattern: each flag an
 * alternative, static ones escaped, case-insensitive ones in `(?i:...)`. CTFd matches a regex
 * flag against the whole answer, and so do regex flags here.
 */
export function combineCtfdFlags(flags: readonly CtfdFlagInput[]): { flag_type: "plaintext" | "regex"; flag: string } | { error: string } | null {
  if (flags.length === 0) return null;
  if (flags.length === 1 && flags[0]!.type === "static" && !flags[0]!.caseInsensitive) return { flag_type: "plaintext", flag: flags[0]!.content };
  const parts = flags.map((f) => {
    const body = f.type === "static" ? escapeRegex(f.content) : f.content;
    return f.caseInsensitive ? `(?i:${body})` : flags.length === 1 ? body : `(?:${body})`;
  });
  const pattern = parts.join("|");
  if (pattern.length > MAX_FLAG_REGEX_LENGTH) return { error: `Together the flags are longer than the ${MAX_FLAG_REGEX_LENGTH} characters a pattern may have.` };
  const error = regexSafetyError(pattern);
  return error ? { error } : { flag_type: "regex", flag: pattern };
}

class Skips {
  private groups = new Map<string, CtfdSkipped>();
  add(kind: CtfdSkipKind, reason: string, name: string): void {
    const key = `${kind}\u0000${reason}`;
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { kind, reason, count: 0, examples: [] }));
    group.count += 1;
    if (group.examples.length < EXAMPLES && name !== "") group.examples.push(name);
  }
  list(): CtfdSkipped[] {
    return [...this.groups.values()];
  }
}

const byId = (rows: CtfdRow[]) => {
  const map = new Map<number, CtfdRow>();
  for (const row of rows) {
    const id = int(row, "id");
    if (id !== null) map.set(id, row);
  }
  return map;
};

function groupBy(rows: CtfdRow[], key: string): Map<number, CtfdRow[]> {
  const map = new Map<number, CtfdRow[]>();
  for (const row of [...rows].sort((a, b) => (int(a, "id") ?? 0) - (int(b, "id") ?? 0))) {
    const id = int(row, key);
    if (id === null) continue;
    let list = map.get(id);
    if (!list) map.set(id, (list = []));
    list.push(row);
  }
  return map;
}

const SUPPORTED_TYPES = new Set(["standard", "dynamic"]);
/** CTFd 3.8+ lets any challenge's value decay with these functions (on the challenge row). */
const DECAY_FUNCTIONS = new Set(["linear", "logarithmic"]);

/** Text shown as code in Markdown, whatever it holds: a fence longer than any run of backticks in it. */
export function codeBlock(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}\n${value}\n${fence}`;
}

/** Maps a CTFd export's tables; answers what to write and the report. Nothing here refuses the archive. */
export function mapCtfdExport(tables: CtfdTables, options: CtfdMapOptions): CtfdMapping {
  const skips = new Skips();
  const notes: string[] = [];
  const dynamic = byId(tables.dynamic_challenge);
  const flagsOf = groupBy(tables.flags, "challenge_id");
  const hintsOf = groupBy(tables.hints, "challenge_id");
  const tagsOf = groupBy(tables.tags, "challenge_id");
  const mapped = { categories: 0, challenges: 0, hidden: 0, flags: 0, regex: 0, hints: 0, tags: 0, files: 0, prerequisites: 0, decay: 0, users: 0, teams: 0, solves: 0 };

  // Challenges first, without their prerequisites (which may name challenges left out).
  type Pending = { id: number; category: string; data: Record<string, unknown>; prerequisites: number[]; next: number | null; name: string };
  const pending: Pending[] = [];
  const rows = [...tables.challenges].sort((a, b) => (int(a, "id") ?? 0) - (int(b, "id") ?? 0));
  const seenIds = new Set<number>();
  const otherStates: string[] = [];
  let withHtml = 0;
  for (const row of rows) {
    const id = int(row, "id");
    const name = text(row, "name").trim() || `Challenge ${id ?? "?"}`;
    if (id === null || id <= 0) {
      skips.add("challenge", "It has no id.", name);
      continue;
    }
    if (seenIds.has(id)) {
      skips.add("challenge", "Another challenge of the export has the same id; the first is imported.", name);
      continue;
    }
    seenIds.add(id);
    const logic = text(row, "logic") || "any";
    if (logic === "all") {
      skips.add("challenge", "It needs every one of its flags (CTFd's \"all\" logic); a challenge here is solved by one flag.", name);
      continue;
    }
    if (logic === "team") {
      skips.add("challenge", "It needs every team member to submit a flag (CTFd's \"team\" logic), which has no equivalent here.", name);
      continue;
    }
    if (logic !== "any") {
      skips.add("challenge", `Flag logic "${logic}" has no equivalent here.`, name);
      continue;
    }
    const type = text(row, "type") || "standard";
    if (!SUPPORTED_TYPES.has(type)) {
      skips.add("challenge", `Challenge type "${type}" (a CTFd plugin) has no equivalent here.`, name);
      continue;
    }
    const flags: CtfdFlagInput[] = [];
    for (const f of flagsOf.get(id) ?? []) {
      const flagType = text(f, "type") || "static";
      const content = text(f, "content");
      if (flagType !== "static" && flagType !== "regex") {
        skips.add("flag", `Flag type "${flagType}" has no equivalent here.`, name);
        continue;
      }
      if (content === "") {
        skips.add("flag", "The flag is empty.", name);
        continue;
      }
      const one = { type: flagType, content, caseInsensitive: text(f, "data") === "case_insensitive" };
      const check = combineCtfdFlags([one]);
      if (check && "error" in check) {
        skips.add("flag", `The pattern does not work with RE2, the regex engine here: ${check.error}`, name);
        continue;
      }
      flags.push(one);
    }
    const combined = combineCtfdFlags(flags);
    if (combined === null) {
      skips.add("challenge", "It has no flag that can be checked here.", name);
      continue;
    }
    if ("error" in combined) {
      skips.add("challenge", combined.error, name);
      continue;
    }
    const flagMetadata: Record<string, unknown> = { flag: combined.flag };
    let score = Math.max(0, int(row, "value") ?? 0);
    let pointsType = "basic";
    const rowFunction = text(row, "function");
    if (type === "dynamic" || DECAY_FUNCTIONS.has(rowFunction)) {
      const params = type === "dynamic" ? (dynamic.get(id) ?? row) : row;
      const initial = Math.max(0, int(params, "initial") ?? score);
      const minimum = Math.min(initial, Math.max(0, int(params, "minimum") ?? initial));
      const decay = Math.max(0, int(params, "decay") ?? 0);
      score = initial;
      pointsType = "decay";
      // Scored with CTFd's own formulas (see ctfdDecayValue), so the same solves give the same points.
      flagMetadata.min_points = minimum;
      flagMetadata.decay_function = (text(params, "function") || rowFunction) === "linear" ? "linear" : "logarithmic";
      flagMetadata.decay = decay;
    }
    const hints: { name: string; penalty: number; text: string; requirements: number[] }[] = [];
    // CTFd ids of the hints kept, and the CTFd hints each requires, to become positions once all are known.
    const hintIds: (number | null)[] = [];
    const hintPrerequisites: number[][] = [];
    for (const [index, hint] of (hintsOf.get(id) ?? []).entries()) {
      const hintType = text(hint, "type") || "standard";
      const content = text(hint, "content");
      if (hintType !== "standard") {
        skips.add("hint", `Hint type "${hintType}" has no equivalent here.`, name);
        continue;
      }
      if (content.trim() === "") {
        skips.add("hint", "The hint has no text.", name);
        continue;
      }
      hintIds.push(int(hint, "id"));
      hintPrerequisites.push(prerequisitesOf(hint.requirements));
      hints.push({ name: (text(hint, "title").trim() || `Hint ${index + 1}`).slice(0, 255), penalty: Math.max(0, int(hint, "cost") ?? 0), text: content, requirements: [] });
    }
    // A hint that required others first requires them here too, by their place in the challenge's hints.
    hints.forEach((hint, index) => {
      for (const required of hintPrerequisites[index]!) {
        const position = hintIds.indexOf(required);
        if (position >= 0 && position !== index) hint.requirements.push(position);
        else skips.add("prerequisite", "A hint names a hint of the challenge that is not imported, so that requirement is dropped.", `${hint.name} of ${name}`);
      }
    });
    const tags: string[] = [];
    for (const tag of tagsOf.get(id) ?? []) {
      const value = text(tag, "value").trim();
      if (value === "") continue;
      if (value.length > 64) skips.add("tag", "Tags here are at most 64 characters.", value.slice(0, 40));
      else if (tags.length >= 50) skips.add("tag", "A challenge here has at most 50 tags.", value);
      else tags.push(value);
    }
    const state = text(row, "state") || "visible";
    const hidden = state !== "visible";
    const connection = text(row, "connection_info").trim();
    const description = connection === "" ? text(row, "description") : `${text(row, "description")}\n\n**Connection:**\n\n${codeBlock(connection)}`;
    if (/<\/?[a-zA-Z][^>]*>/.test(text(row, "description"))) withHtml += 1;
    const maxAttempts = int(row, "max_attempts") ?? 0;
    const data = {
      name: name.slice(0, 255),
      description,
      challenge_type: "default",
      challenge_metadata: {},
      flag_type: combined.flag_type,
      flag_metadata: flagMetadata,
      author: text(row, "attribution").slice(0, 255),
      score,
      unlocks: [],
      hints,
      files: [],
      points_type: pointsType,
      hidden,
      attempt_limit: maxAttempts > 0 ? maxAttempts : null,
      tags,
    };
    const valid = validateChallengeData(data);
    if (!valid.ok) {
      const [field, messages] = Object.entries(valid.details)[0] ?? ["", [valid.message]];
      skips.add("challenge", `${field ? `${field}: ` : ""}${messages[0] ?? valid.message}`, name);
      continue;
    }
    pending.push({ id, category: text(row, "category").trim().slice(0, 255) || "Uncategorised", data: valid.data, prerequisites: prerequisitesOf(row.requirements), next: int(row, "next_id"), name });
    mapped.challenges += 1;
    mapped.flags += flags.length;
    if (combined.flag_type === "regex") mapped.regex += 1;
    mapped.hints += hints.length;
    mapped.tags += tags.length;
    if (hidden) mapped.hidden += 1;
    if (pointsType === "decay") mapped.decay += 1;
    if (!["visible", "hidden"].includes(state)) otherStates.push(name);
  }

  const kept = new Set(pending.map((p) => p.id));
  const names = new Map(rows.map((r) => [int(r, "id"), text(r, "name")]));
  const categories = new Map<string, CategoryData>();
  for (const item of pending) {
    const required = item.prerequisites.filter((id) => {
      if (kept.has(id) && id !== item.id) return true;
      skips.add("prerequisite", "It names a challenge that is not imported, so it is dropped.", `${item.name} needs ${names.get(id) ?? `#${id}`}`);
      return false;
    });
    mapped.prerequisites += required.length;
    // CTFd 3.6+'s next challenge, the one suggested after a solve.
    let next: number | null = null;
    if (item.next !== null && item.next > 0) {
      // A challenge naming itself suggests nothing, as the editor would refuse it.
      if (kept.has(item.next)) next = item.next === item.id ? null : item.next;
      else skips.add("next challenge", "It names a challenge that is not imported, so none is suggested.", `${item.name} then ${names.get(item.next) ?? `#${item.next}`}`);
    }
    // CTFd requires every prerequisite: "a b AND c AND".
    const unlock = required.map((id, i) => (i === 0 ? String(id) : `${id} AND`)).join(" ");
    let category = categories.get(item.category);
    if (!category) categories.set(item.category, (category = { name: item.category, contained_type: "jeopardy", description: "", display_order: categories.size, metadata: {}, challenges: [] }));
    category.challenges.push({ ...(item.data as CategoryData["challenges"][number]), id: item.id, unlock_requirements: unlock, next_challenge: next });
  }
  mapped.categories = categories.size;
  if (otherStates.length > 0) {
    const shown = otherStates.slice(0, EXAMPLES).map((n) => `"${n}"`).join(", ");
    notes.push(`${otherStates.length} challenge(s) had a CTFd state other than visible or hidden and are imported hidden: ${shown}${otherStates.length > EXAMPLES ? ", …" : ""}.`);
  }
  if (withHtml > 0) notes.push(`${withHtml} challenge description(s) contain HTML; descriptions here are Markdown, so check how they look.`);
  const anonymized = tables.challenges.filter((r) => requirementsOf(r.requirements)?.anonymize === true).length;
  if (anonymized > 0) notes.push(`${anonymized} challenge(s) were shown anonymously while locked in CTFd; here locked challenges show as locked tiles.`);

  // Files of imported challenges that the archive holds.
  const files: CtfdFile[] = [];
  const fileCounts = new Map<number, number>();
  for (const row of [...tables.files].sort((a, b) => (int(a, "id") ?? 0) - (int(b, "id") ?? 0))) {
    const location = text(row, "location");
    const fileName = location.split("/").pop() ?? location;
    const type = text(row, "type") || "standard";
    const challenge = int(row, "challenge_id");
    if (type !== "challenge" && type !== "standard") {
      skips.add("file", `Files of type "${type}" (pages, solutions) are not imported.`, fileName);
      continue;
    }
    if (challenge === null || !kept.has(challenge)) {
      skips.add("file", "Its challenge is not imported.", fileName);
      continue;
    }
    if (!options.uploads.has(location)) {
      skips.add("file", "The archive does not hold it (files kept outside CTFd's upload folder, such as on S3, are not in the export).", fileName);
      continue;
    }
    const count = fileCounts.get(challenge) ?? 0;
    if (count >= 100) {
      skips.add("file", "A challenge here has at most 100 files.", fileName);
      continue;
    }
    fileCounts.set(challenge, count + 1);
    files.push({ challenge, location, name: fileName });
  }
  mapped.files = files.length;

  const configRow = (key: string) => tables.config.find((r) => text(r, "key") === key);
  const userMode = configRow("user_mode") ? text(configRow("user_mode")!, "value") === "users" : tables.teams.length === 0;
  const mode: CtfdReport["mode"] = userMode ? "users" : "teams";
  if (tables.config.length > 0) skips.add("setting", "CTFd's settings (event name, times, theme, pages) are set here in the admin pages.", `${tables.config.length} settings`);
  for (const award of tables.awards) skips.add("award", "Awards have no equivalent here; the teams' totals leave them out.", text(award, "name"));
  for (const _unlock of tables.unlocks) skips.add("hint unlock", "Hints players opened are not carried over; their solves keep the full value.", "");

  const users: CtfdUser[] = [];
  const teams: CtfdTeam[] = [];
  const solves: CtfdSolve[] = [];
  if (options.players) {
    const taken = options.taken ?? { usernames: new Set(), emails: new Set(), teams: new Set() };
    const usernames = new Set(taken.usernames);
    const emails = new Set(taken.emails);
    const teamNames = new Set(taken.teams);
    const teamIds = new Set<number>();
    if (!userMode) {
      for (const row of [...tables.teams].sort((a, b) => (int(a, "id") ?? 0) - (int(b, "id") ?? 0))) {
        const id = int(row, "id");
        const name = text(row, "name").trim();
        if (id === null) continue;
        if (name === "" || name.length > LIMITS.teamName || /\p{Cc}/u.test(name)) {
          skips.add("team", `Team names here are 1 to ${LIMITS.teamName} characters.`, name.slice(0, 40));
          continue;
        }
        if (teamNames.has(name.toLowerCase())) {
          skips.add("team", "A team here already has this name.", name);
          continue;
        }
        teamNames.add(name.toLowerCase());
        teamIds.add(id);
        teams.push({ id, name, hidden: flag(row, "hidden") || flag(row, "banned"), captain: int(row, "captain_id"), created: date(row, "created") });
      }
      const banned = tables.teams.filter((r) => flag(r, "banned")).length;
      if (banned > 0) notes.push(`${banned} banned team(s) are imported hidden from the leaderboard.`);
    }
    for (const row of [...tables.users].sort((a, b) => (int(a, "id") ?? 0) - (int(b, "id") ?? 0))) {
      const id = int(row, "id");
      const username = text(row, "name").trim();
      const email = text(row, "email").trim();
      if (id === null) continue;
      if (text(row, "type") === "admin") {
        skips.add("user", "CTFd admins are not imported: give your organisers staff accounts here.", username);
        continue;
      }
      if (username === "" || username.length > LIMITS.username || /\p{Cc}/u.test(username)) {
        skips.add("user", `Usernames here are 1 to ${LIMITS.username} characters.`, username.slice(0, 40));
        continue;
      }
      if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
        skips.add("user", "It has no usable email address, which an imported account needs to set its password.", username);
        continue;
      }
      if (usernames.has(username.toLowerCase()) || emails.has(email.toLowerCase())) {
        skips.add("user", "An account here already has this username or email.", username);
        continue;
      }
      usernames.add(username.toLowerCase());
      emails.add(email.toLowerCase());
      let team = int(row, "team_id");
      if (userMode) {
        // Every player plays as a team of one, named after them.
        let teamName = username;
        if (teamNames.has(teamName.toLowerCase())) {
          const suffix = `#${id}`;
          teamName = `${username.slice(0, LIMITS.teamName - suffix.length)}${suffix}`;
        }
        if (teamNames.has(teamName.toLowerCase())) {
          usernames.delete(username.toLowerCase());
          emails.delete(email.toLowerCase());
          skips.add("user", "A team here already has the player's name, and the name with the CTFd id added too.", username);
          continue;
        }
        teamNames.add(teamName.toLowerCase());
        teams.push({ id, name: teamName, hidden: flag(row, "hidden") || flag(row, "banned"), captain: id, created: date(row, "created") });
        teamIds.add(id);
        team = id;
      } else if (team !== null && !teamIds.has(team)) {
        team = null;
      }
      users.push({ id, username, email, hidden: flag(row, "hidden"), banned: flag(row, "banned"), verified: flag(row, "verified"), team, joined: date(row, "created") });
    }
    if (userMode && users.length > 0) notes.push("CTFd ran in user mode: each player gets a team of one named after them. Turn teams off in the settings to keep playing that way.");
    if (users.length > 0) notes.push("Imported accounts have no password here (CTFd's password hashes cannot be checked): players set one with “Forgot password?” on the login page, which mails a link to their address.");

    const userById = new Map(users.map((u) => [u.id, u]));
    const submissionDates = new Map<number, Date | null>();
    for (const row of tables.submissions) {
      const id = int(row, "id");
      if (id !== null) submissionDates.set(id, date(row, "date"));
    }
    const ctfdNames = new Map(tables.users.map((u) => [int(u, "id"), text(u, "name")]));
    const solved = new Set<string>();
    const ordered = tables.solves
      .map((row) => ({ row, at: submissionDates.get(int(row, "id") ?? -1) ?? date(row, "date") }))
      // Solves without a date go last (in id order), never first: they would otherwise take first bloods.
      .sort((a, b) => (a.at?.getTime() ?? Infinity) - (b.at?.getTime() ?? Infinity) || (int(a.row, "id") ?? 0) - (int(b.row, "id") ?? 0));
    const dateless = ordered.filter((o) => o.at === null).length;
    if (dateless > 0) notes.push(`${dateless} solve(s) have no date; they are placed after every dated solve.`);
    for (const { row, at } of ordered) {
      const challenge = int(row, "challenge_id");
      const userId = int(row, "user_id");
      const label = `${names.get(challenge) ?? `#${challenge}`} by ${userId === null ? "?" : (ctfdNames.get(userId) ?? `#${userId}`)}`;
      if (challenge === null || !kept.has(challenge)) {
        skips.add("solve", "Its challenge is not imported.", label);
        continue;
      }
      const user = userId === null ? undefined : userById.get(userId);
      if (!user) {
        skips.add("solve", "Its player is not imported.", label);
        continue;
      }
      const team = userMode ? user.id : int(row, "team_id");
      if (team === null || user.team !== team) {
        skips.add("solve", "Its player is not in the solving team (or has no team) here.", label);
        continue;
      }
      if (solved.has(`${team}:${challenge}`)) {
        skips.add("solve", "The team had already solved the challenge.", label);
        continue;
      }
      solved.add(`${team}:${challenge}`);
      solves.push({ challenge, user: user.id, team, at });
    }
    const hiddenTeams = new Set(teams.filter((t) => t.hidden).map((t) => t.id));
    const hiddenSolves = solves.filter((s) => {
      const user = userById.get(s.user)!;
      return user.hidden || user.banned || hiddenTeams.has(s.team);
    }).length;
    if (hiddenSolves > 0) notes.push(`${hiddenSolves} solve(s) are by hidden or banned players or teams: CTFd leaves them out of a dynamic challenge's decay, here they count towards it.`);
    mapped.users = users.length;
    mapped.teams = teams.length;
    mapped.solves = solves.length;
  } else if (tables.users.length > 0 || tables.solves.length > 0) {
    notes.push(`Players were left out: ${tables.users.length} user(s), ${tables.teams.length} team(s) and ${tables.solves.length} solve(s) are in the archive.`);
  }

  return {
    categories: [...categories.values()],
    files,
    users,
    teams,
    solves,
    report: { mode, players: options.players, mapped, skipped: skips.list(), notes },
  };
}
