import type { Prisma } from "@flagship/db";
import { z } from "zod";
import { parseInput } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";

export const ZAuditLogInput = z.object({
  limit: z.coerce.number().int().min(1).max(1000).catch(1000),
  offset: z.coerce.number().int().min(0).catch(0),
  /** Only entries of this action (exact). */
  action: z.string().trim().max(64).optional().catch(undefined),
  /** Only entries by staff whose username contains this (any case). */
  actor: z.string().trim().max(100).optional().catch(undefined),
});

/**
 * The names, as they are now, of what an entry refers to by id: its team, player, challenge and
 * category, and the record the action was on (`subject`: the challenge, category, hint, file, page,
 * announcement, leaderboard group or challenge server job). Missing for records deleted since;
 * the entry's details keep the name they had where the action recorded it.
 */
export interface AuditNames {
  team?: string;
  user?: string;
  challenge?: string;
  category?: string;
  subject?: string;
  /** The new captain of a team handed over. */
  owner?: string;
}

export interface AuditEntry {
  id: number;
  action: string;
  user: number | null;
  username: string;
  time: string;
  extra: unknown;
}

/** An entry as the staff console's audit log shows it: with the names of what it refers to. */
export interface NamedAuditEntry extends AuditEntry {
  names: AuditNames;
}

const SELECT = { id: true, action: true, userId: true, username: true, time: true, extra: true } satisfies Prisma.AuditLogSelect;

function whereOf(input: z.infer<typeof ZAuditLogInput>): Prisma.AuditLogWhereInput {
  return {
    ...(input.action && { action: input.action }),
    ...(input.actor && { username: { contains: input.actor, mode: "insensitive" } }),
  };
}

type Row = Prisma.AuditLogGetPayload<{ select: typeof SELECT }>;

function toEntry(r: Row): AuditEntry {
  return { id: r.id, action: r.action, user: r.userId, username: r.username, time: r.time.toISOString(), extra: r.extra };
}

/** The table the `id` of an action's details is a row of. */
type Subject = "challenge" | "category" | "hint" | "file" | "page" | "announcement" | "group" | "job";
const SUBJECT: Record<Subject, RegExp> = {
  challenge: /^(create|update|delete)_challenge$/,
  category: /^(create|update|delete|import)_category$/,
  hint: /^(create|update|delete)_hint$/,
  file: /^(create|update|delete)_file$/,
  page: /^(create|update|delete)_page$/,
  announcement: /^(create|delete)_announcement$/,
  group: /^(create|edit|delete)_leaderboard_group$/,
  job: /^(create|update|redeploy|delete)_challenge_server_job$/,
};
const subjectOf = (action: string) => (Object.keys(SUBJECT) as Subject[]).find((kind) => SUBJECT[kind].test(action));

const idIn = (extra: Record<string, unknown>, field: string): number | undefined => {
  const value = extra[field];
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= 2_147_483_647 ? value : undefined;
};

/** Each entry's names, read with one query per kind of record for the whole page. */
async function namesOf(ctx: StaffContext, rows: Row[]): Promise<AuditNames[]> {
  const wanted = { team: new Set<number>(), user: new Set<number>(), challenge: new Set<number>(), category: new Set<number>() };
  const subjects = new Map<Subject, Set<number>>();
  const refs = rows.map((r) => {
    const extra = r.extra && typeof r.extra === "object" && !Array.isArray(r.extra) ? (r.extra as Record<string, unknown>) : {};
    const subject = subjectOf(r.action);
    const ref = {
      team: idIn(extra, "team"),
      user: idIn(extra, "user") ?? idIn(extra, "target_id"),
      challenge: idIn(extra, "challenge"),
      category: idIn(extra, "category"),
      owner: r.action === "transfer" ? idIn(extra, "new") : undefined,
      subject: subject && idIn(extra, "id") !== undefined ? { kind: subject, id: idIn(extra, "id")! } : undefined,
    };
    for (const kind of ["team", "user", "challenge", "category"] as const) if (ref[kind] !== undefined) wanted[kind].add(ref[kind]);
    if (ref.owner !== undefined) wanted.user.add(ref.owner);
    if (ref.subject) subjects.set(ref.subject.kind, (subjects.get(ref.subject.kind) ?? new Set()).add(ref.subject.id));
    return ref;
  });
  const ids = (set: Set<number> | undefined) => ({ where: { id: { in: [...(set ?? [])] } } });
  const named = <T extends { id: number }>(list: T[], name: (row: T) => string) => new Map(list.map((row) => [row.id, name(row)]));
  const none = Promise.resolve([]);
  const [teams, users, challenges, categories, hints, files, pages, announcements, groups, jobs] = await Promise.all([
    wanted.team.size ? ctx.db.team.findMany({ ...ids(wanted.team), select: { id: true, name: true } }) : none,
    wanted.user.size ? ctx.db.user.findMany({ ...ids(wanted.user), select: { id: true, username: true } }) : none,
    wanted.challenge.size || subjects.has("challenge") ? ctx.db.challenge.findMany({ where: { id: { in: [...wanted.challenge, ...(subjects.get("challenge") ?? [])] } }, select: { id: true, name: true } }) : none,
    wanted.category.size || subjects.has("category") ? ctx.db.category.findMany({ where: { id: { in: [...wanted.category, ...(subjects.get("category") ?? [])] } }, select: { id: true, name: true } }) : none,
    subjects.has("hint") ? ctx.db.hint.findMany({ ...ids(subjects.get("hint")), select: { id: true, name: true } }) : none,
    subjects.has("file") ? ctx.db.file.findMany({ ...ids(subjects.get("file")), select: { id: true, name: true } }) : none,
    subjects.has("page") ? ctx.db.page.findMany({ ...ids(subjects.get("page")), select: { id: true, url: true } }) : none,
    subjects.has("announcement") ? ctx.db.announcement.findMany({ ...ids(subjects.get("announcement")), select: { id: true, title: true } }) : none,
    subjects.has("group") ? ctx.db.leaderboardGroup.findMany({ ...ids(subjects.get("group")), select: { id: true, name: true } }) : none,
    subjects.has("job") ? ctx.db.challengeServerJob.findMany({ ...ids(subjects.get("job")), select: { id: true, name: true } }) : none,
  ]);
  const maps = {
    team: named(teams, (t) => t.name),
    user: named(users, (u) => u.username),
    challenge: named(challenges, (c) => c.name),
    category: named(categories, (c) => c.name),
  };
  const subjectMaps: Record<Subject, Map<number, string>> = {
    ...maps,
    hint: named(hints, (h) => h.name),
    file: named(files, (f) => f.name),
    page: named(pages, (p) => `/${p.url}`),
    announcement: named(announcements, (a) => a.title),
    group: named(groups, (g) => g.name),
    job: named(jobs, (j) => j.name),
  };
  return refs.map((ref) => {
    const names: AuditNames = {};
    for (const kind of ["team", "user", "challenge", "category"] as const) {
      const name = ref[kind] !== undefined ? maps[kind].get(ref[kind]) : undefined;
      if (name !== undefined) names[kind] = name;
    }
    const owner = ref.owner !== undefined ? maps.user.get(ref.owner) : undefined;
    if (owner !== undefined) names.owner = owner;
    const subject = ref.subject ? subjectMaps[ref.subject.kind].get(ref.subject.id) : undefined;
    if (subject !== undefined) names.subject = subject;
    return names;
  });
}

/** GET /admin/audit_log/: staff writes, newest first. */
export async function listAuditLog(ctx: StaffContext, input: unknown = {}): Promise<AuditEntry[]> {
  const parsed = parseInput(ZAuditLogInput, input ?? {});
  const rows = await ctx.db.auditLog.findMany({
    select: SELECT,
    where: whereOf(parsed),
    orderBy: [{ time: "desc" }, { id: "desc" }],
    take: parsed.limit,
    skip: parsed.offset,
  });
  return rows.map(toEntry);
}

/**
 * The audit log page of the staff console: one page of entries newest first, filtered by action
 * and actor, with the total that matches, every action recorded so far (for the filter), and the
 * names of what each entry refers to by id (for the sentence the screen makes of it).
 */
export async function auditLogPage(ctx: StaffContext, input: unknown = {}): Promise<{ count: number; results: NamedAuditEntry[]; actions: string[] }> {
  const parsed = parseInput(ZAuditLogInput, input ?? {});
  const where = whereOf(parsed);
  const [count, rows, actions] = await Promise.all([
    ctx.db.auditLog.count({ where }),
    ctx.db.auditLog.findMany({ select: SELECT, where, orderBy: [{ time: "desc" }, { id: "desc" }], take: parsed.limit, skip: parsed.offset }),
    ctx.db.auditLog.groupBy({ by: ["action"], orderBy: { action: "asc" } }),
  ]);
  const names = await namesOf(ctx, rows);
  return { count, results: rows.map((r, i) => ({ ...toEntry(r), names: names[i]! })), actions: actions.map((a) => a.action) };
}
