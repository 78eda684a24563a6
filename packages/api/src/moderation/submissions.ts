import { Prisma } from "@flagship/db";
import { parseInput, SUBMISSIONS_CSV_COLUMNS, toCsv, type SubmissionFilter, ZSubmissionFilter } from "@flagship/shared";
import { z } from "zod";
import type { StaffContext } from "../guards.ts";

/**
 * The submissions log: every flag sent, right (solves) or wrong (incorrect attempts), newest first,
 * with the text sent, which only staff ever read. Paged from the database: each table gives its
 * newest `offset + limit` rows that pass the filters from its (timestamp, id) index (or the
 * filter's own index), and the two lists are merged; the total is counted alongside.
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

const ZSubmissionsPage = ZSubmissionFilter.extend({
  limit: z.number().int().min(1).max(100).default(25),
  offset: z.number().int().min(0).max(100_000).default(0),
});

type Row = {
  kind: "s" | "a";
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

function conditions(filter: SubmissionFilter, table: Prisma.Sql): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filter.team !== undefined) parts.push(Prisma.sql`${table}.team_id = ${filter.team}`);
  if (filter.user !== undefined) parts.push(Prisma.sql`${table}.user_id = ${filter.user}`);
  if (filter.challenge !== undefined) parts.push(Prisma.sql`${table}.challenge_id = ${filter.challenge}`);
  return Prisma.join(parts, " AND ");
}

/** The newest `take` rows of the filtered log from `skip` on; names joined to the page's rows only. */
async function readRows(ctx: StaffContext, filter: SubmissionFilter, skip: number, take: number): Promise<Row[]> {
  const s = Prisma.raw("s");
  const a = Prisma.raw("a");
  const window = skip + take;
  const solves =
    filter.correct === false
      ? null
      : Prisma.sql`(SELECT 's' AS kind, s.id, s.timestamp, s.team_id, s.user_id, s.challenge_id, s.flag, s.ip, s.marked_by_id
           FROM solves s WHERE ${conditions(filter, s)} ORDER BY s.timestamp DESC, s.id DESC LIMIT ${window})`;
  const attempts =
    filter.correct === true
      ? null
      : Prisma.sql`(SELECT 'a' AS kind, a.id, a.timestamp, a.team_id, a.user_id, a.challenge_id, a.flag, a.ip, NULL::int AS marked_by_id
           FROM incorrect_attempts a WHERE ${conditions(filter, a)} ORDER BY a.timestamp DESC, a.id DESC LIMIT ${window})`;
  const both = Prisma.join(
    [solves, attempts].filter((q): q is Prisma.Sql => q !== null),
    " UNION ALL ",
  );
  return ctx.db.$queryRaw<Row[]>`
    SELECT p.kind, p.id, p.timestamp, p.team_id, t.name::text AS team_name, p.user_id, u.username::text AS username,
           p.challenge_id, c.name AS challenge_name, p.flag, p.ip, m.username::text AS marked_by
      FROM (SELECT * FROM (${both}) x ORDER BY x.timestamp DESC, x.kind DESC, x.id DESC OFFSET ${skip} LIMIT ${take}) p
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

async function countRows(ctx: StaffContext, filter: SubmissionFilter): Promise<number> {
  const where = {
    ...(filter.team !== undefined && { teamId: filter.team }),
    ...(filter.user !== undefined && { userId: filter.user }),
    ...(filter.challenge !== undefined && { challengeId: filter.challenge }),
  };
  const [solves, attempts] = await Promise.all([
    filter.correct === false ? 0 : ctx.db.solve.count({ where }),
    filter.correct === true ? 0 : ctx.db.incorrectAttempt.count({ where }),
  ]);
  return solves + attempts;
}

export async function listSubmissions(ctx: StaffContext, input: unknown): Promise<{ count: number; results: Submission[] }> {
  const { limit, offset, ...filter } = parseInput(ZSubmissionsPage, input);
  const [rows, count] = await Promise.all([readRows(ctx, filter, offset, limit), countRows(ctx, filter)]);
  return { count, results: rows.map(toSubmission) };
}

/** At most this many rows in one export (the newest): a weekend of a large event fits. */
export const MAX_EXPORT = 250_000;

/** The filtered log as CSV, newest first, for a download. */
export async function exportSubmissionsCsv(ctx: StaffContext, input: unknown): Promise<{ filename: string; csv: string; rows: number }> {
  const filter = parseInput(ZSubmissionFilter, input);
  const rows = await readRows(ctx, filter, 0, MAX_EXPORT);
  const csv = toCsv(
    SUBMISSIONS_CSV_COLUMNS,
    rows.map((r) => [r.timestamp.toISOString(), r.kind === "s", r.team_id, r.team_name, r.user_id, r.username, r.challenge_id, r.challenge_name, r.flag ?? "", r.ip ?? "", r.marked_by ?? ""]),
  );
  return { filename: "submissions.csv", csv, rows: rows.length };
}
