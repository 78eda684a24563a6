import { Prisma } from "@flagship/db";
import { parseInput, SUBMISSIONS_CSV_COLUMNS, toCsv, type SubmissionFilter, ZSubmissionFilter } from "@flagship/shared";
import { z } from "zod";
import type { StaffContext } from "../guards.ts";

/**
 * The submissions log: every flag sent, right (solves) or wrong (incorrect attempts), newest first,
 * with the text sent, which only staff ever read.
 *
 * Paged by key, not by offset: the log is ordered by (timestamp, kind, id), newest first, and an
 * older page starts after the last row of the page before (its cursor), so each page reads
 * `limit` rows from each table along an index whatever its depth: (timestamp, id) unfiltered, or
 * (team | user | challenge, timestamp, id) for a filter (see the migration). New rows arriving on
 * top never shift an older page. The first page also counts the rows that pass the filters, up to
 * COUNT_CAP ("more than 1,000" beyond it): an exact count of a log of millions would cost far more
 * than the page, and this one is read again with each live refresh of the first page.
 */
export interface Submission {
  /** "s12" for solve 12, "a40" for incorrect attempt 40: unique across both tables. */
  key: string;
  correct: boolean;
  timestamp: string;
  team: number;
  team_name: string;
  user: number;
  username: string;
  challenge: number;
  challenge_name: string;
  /** The text sent; null for a solve staff marked or one carried over by an import. */
  flag: string | null;
  ip: string | null;
  /** The staff member who marked it solved, for a solve made by staff. */
  marked_by: string | null;
}

export interface SubmissionsPage {
  /** Rows passing the filters, counted up to COUNT_CAP; null on older pages (the first page's stands). */
  count: number | null;
  /** Whether there are more than `count` rows (the count stopped at COUNT_CAP). */
  count_capped: boolean;
  results: Submission[];
  /** Where the next, older page starts; null on the last page. */
  next_cursor: string | null;
}

/** The count shown above the log stops here (reading 1,000 index entries per table costs about what the page does). */
export const COUNT_CAP = 1_000;

/** A page's position: the ordering key of the last row before it, "<ISO time>_<kind><id>". */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([sa])(\d{1,10})$/;
const ZCursor = z
  .string()
  .regex(CURSOR, "Not a position in the submissions log.")
  .refine((c) => !Number.isNaN(Date.parse(CURSOR.exec(c)?.[1] ?? "")), "Not a position in the submissions log.");

const ZSubmissionsPage = ZSubmissionFilter.extend({
  limit: z.number().int().min(1).max(100).default(25),
  cursor: ZCursor.nullish(),
});

type Kind = "s" | "a";
type Key = { timestamp: Date; kind: Kind; id: number };

type Row = {
  kind: Kind;
  id: number;
  timestamp: Date;
  team_id: number;
  team_name: string;
  user_id: number;
  username: string;
  challenge_id: number;
  challenge_name: string;
  flag: string | null;
  ip: string | null;
  marked_by: string | null;
};

const cursorOf = (r: Key): string => `${r.timestamp.toISOString()}_${r.kind}${r.id}`;
function keyOf(cursor: string): Key {
  const [, time, kind, id] = CURSOR.exec(cursor)!;
  return { timestamp: new Date(time!), kind: kind as Kind, id: Number(id) };
}

/**
 * The filters and, for an older page, "comes after `after`" for one table's rows of `kind`. In the
 * log's order (timestamp, kind, id) descending, with a solve ('s') before an attempt ('a') of the
 * same time: a row of the cursor's own kind is older when (timestamp, id) is smaller; a solve
 * after an attempt's cursor only when strictly older; an attempt after a solve's, from the same time.
 */
function conditions(filter: SubmissionFilter, table: Prisma.Sql, kind: Kind, after: Key | null): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filter.team !== undefined) parts.push(Prisma.sql`${table}.team_id = ${filter.team}`);
  if (filter.user !== undefined) parts.push(Prisma.sql`${table}.user_id = ${filter.user}`);
  if (filter.challenge !== undefined) parts.push(Prisma.sql`${table}.challenge_id = ${filter.challenge}`);
  if (after) {
    if (after.kind === kind) parts.push(Prisma.sql`(${table}.timestamp, ${table}.id) < (${after.timestamp}, ${after.id})`);
    else if (kind === "s") parts.push(Prisma.sql`${table}.timestamp < ${after.timestamp}`);
    else parts.push(Prisma.sql`${table}.timestamp <= ${after.timestamp}`);
  }
  return Prisma.join(parts, " AND ");
}

const wantsSolves = (filter: SubmissionFilter) => filter.correct !== false;
const wantsAttempts = (filter: SubmissionFilter) => filter.correct !== true;

/**
 * The `take` newest rows of the filtered log after `after` (from the top without); names joined to
 * those rows only. With `counted`, each row also carries the filtered log's count up to COUNT_CAP + 1
 * (`n`, read once by the same statement: one round trip for the first page).
 */
async function readRows(ctx: StaffContext, filter: SubmissionFilter, after: Key | null, take: number, counted = false): Promise<(Row & { n?: number })[]> {
  const s = Prisma.raw("s");
  const a = Prisma.raw("a");
  const solves = wantsSolves(filter)
    ? Prisma.sql`(SELECT 's' AS kind, s.id, s.timestamp, s.team_id, s.user_id, s.challenge_id, s.flag, s.ip, s.marked_by_id
           FROM solves s WHERE ${conditions(filter, s, "s", after)} ORDER BY s.timestamp DESC, s.id DESC LIMIT ${take})`
    : null;
  const attempts = wantsAttempts(filter)
    ? Prisma.sql`(SELECT 'a' AS kind, a.id, a.timestamp, a.team_id, a.user_id, a.challenge_id, a.flag, a.ip, NULL::int AS marked_by_id
           FROM incorrect_attempts a WHERE ${conditions(filter, a, "a", after)} ORDER BY a.timestamp DESC, a.id DESC LIMIT ${take})`
    : null;
  const both = Prisma.join(
    [solves, attempts].filter((q): q is Prisma.Sql => q !== null),
    " UNION ALL ",
  );
  return ctx.db.$queryRaw<(Row & { n?: number })[]>`
    SELECT p.kind, p.id, p.timestamp, p.team_id, t.name::text AS team_name, p.user_id, u.username::text AS username,
           p.challenge_id, c.name AS challenge_name, p.flag, p.ip, m.username::text AS marked_by${counted ? Prisma.sql`, ${countExpression(filter)} AS n` : Prisma.empty}
      FROM (SELECT * FROM (${both}) x ORDER BY x.timestamp DESC, x.kind DESC, x.id DESC LIMIT ${take}) p
      JOIN teams t ON t.id = p.team_id
      JOIN users u ON u.id = p.user_id
      JOIN challenges c ON c.id = p.challenge_id
      LEFT JOIN users m ON m.id = p.marked_by_id
     ORDER BY p.timestamp DESC, p.kind DESC, p.id DESC`;
}

const toSubmission = (r: Row): Submission => ({
  key: `${r.kind}${r.id}`,
  correct: r.kind === "s",
  timestamp: r.timestamp.toISOString(),
  team: r.team_id,
  team_name: r.team_name,
  user: r.user_id,
  username: r.username,
  challenge: r.challenge_id,
  challenge_name: r.challenge_name,
  flag: r.flag,
  ip: r.ip,
  marked_by: r.marked_by,
});

/** The filtered rows, counted along the same indexes up to COUNT_CAP + 1 per table: one integer. */
function countExpression(filter: SubmissionFilter): Prisma.Sql {
  const s = Prisma.raw("s");
  const a = Prisma.raw("a");
  const limit = COUNT_CAP + 1;
  const solves = wantsSolves(filter) ? Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM solves s WHERE ${conditions(filter, s, "s", null)} LIMIT ${limit}) x)` : Prisma.sql`0`;
  const attempts = wantsAttempts(filter) ? Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM incorrect_attempts a WHERE ${conditions(filter, a, "a", null)} LIMIT ${limit}) x)` : Prisma.sql`0`;
  return Prisma.sql`(${solves} + ${attempts})::int`;
}

export async function listSubmissions(ctx: StaffContext, input: unknown): Promise<SubmissionsPage> {
  const { limit, cursor, ...filter } = parseInput(ZSubmissionsPage, input);
  const after = cursor ? keyOf(cursor) : null;
  // One more row than the page tells whether an older page exists. The first page counts too, in
  // the same statement (an empty first page means nothing passes the filters: a count of 0).
  const rows = await readRows(ctx, filter, after, limit + 1, !after);
  const n = after ? null : (rows[0]?.n ?? 0);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    count: n === null ? null : Math.min(n, COUNT_CAP),
    count_capped: n !== null && n > COUNT_CAP,
    results: page.map(toSubmission),
    next_cursor: rows.length > limit && last ? cursorOf(last) : null,
  };
}

/** At most this many rows in one export (the newest): a weekend of a large event fits. */
export const MAX_EXPORT = 250_000;
/** Rows read from the database at a time while exporting. */
const EXPORT_CHUNK = 5_000;

/** The last line of an export cut at the cap, in its first column, so that whoever opens the file sees it. */
export const exportCutNote = (cap: number) => `# Cut at the newest ${cap.toLocaleString("en")} submissions: older ones are not in this file. Filter the log to export them.`;

/**
 * The filtered log as CSV, newest first, for a download: read a chunk at a time along the log's
 * order, up to `cap` rows (MAX_EXPORT; smaller in tests). An export cut at the cap says so in
 * `cut` and in a last line of the file.
 */
export async function exportSubmissionsCsv(ctx: StaffContext, input: unknown, cap = MAX_EXPORT): Promise<{ filename: string; csv: string; rows: number; cut: boolean }> {
  const filter = parseInput(ZSubmissionFilter, input);
  const lines: unknown[][] = [];
  let after: Key | null = null;
  let cut = false;
  for (;;) {
    const want = Math.min(EXPORT_CHUNK, cap - lines.length);
    // One more than wanted: whether anything is left after the cap.
    const rows = await readRows(ctx, filter, after, want + 1);
    for (const r of rows.slice(0, want)) {
      lines.push([r.timestamp.toISOString(), r.kind === "s", r.team_id, r.team_name, r.user_id, r.username, r.challenge_id, r.challenge_name, r.flag ?? "", r.ip ?? "", r.marked_by ?? ""]);
    }
    if (rows.length <= want) break;
    if (lines.length >= cap) {
      cut = true;
      break;
    }
    after = rows[want - 1]!;
  }
  const rows = lines.length;
  if (cut) lines.push([exportCutNote(cap)]);
  return { filename: "submissions.csv", csv: toCsv(SUBMISSIONS_CSV_COLUMNS, lines), rows, cut };
}
