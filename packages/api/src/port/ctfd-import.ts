import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isTransactionTimeout, isUniqueViolation, type Prisma, uniqueViolationModel } from "@flagship/db";
import { AppError, CTFD_TABLES, type CtfdReport, type CtfdRow, type CtfdTableName, type CtfdTables, EVENT_ARCHIVE_LIMITS, mapCtfdExport, parseJsonText, refuseUnstorableText } from "@flagship/shared";
import yauzl from "yauzl";
import { writeAudit } from "../audit/write-audit.ts";
import { announceChallengeChanges } from "../challenges/changes.ts";
import { invalidatePlayerState } from "../challenges/team-state.ts";
import { safeFileName } from "../challenges/file-storage.ts";
import type { StaffContext } from "../guards.ts";
import { recordSolveIn } from "../scoring/record-solve.ts";
import { byteLimit, checkedName, FileStaging, megabytes, refuse } from "./archive-files.ts";
import { IMPORT_TX, writeCategories } from "./import-content.ts";

/**
 * Migration from CTFd: its export archive (the .zip of Admin Panel → Config → Backup → Export:
 * `db/{table}.json` as `{count, results, meta}`, and `uploads/{folder}/{name}`) read defensively,
 * mapped by mapCtfdExport, and either reported (a dry run, which changes nothing) or written in
 * one transaction, files included (see FileStaging).
 *
 * The zip is kept on disk while it is read (a zip's directory is at its end), and read member by
 * member: paths are checked before anything is written (no absolute paths, `..`, backslashes or
 * links), the entry count and every size are limited, and sizes are counted on the bytes really
 * decompressed, so a member that lies about its size is stopped too.
 */

export type CtfdLimits = { [K in keyof typeof EVENT_ARCHIVE_LIMITS]: number } & {
  /** All `db/` tables read, together: they are kept in memory until the import ends. */
  maxTablesBytes: number;
};
export const CTFD_LIMITS: CtfdLimits = { ...EVENT_ARCHIVE_LIMITS, maxTablesBytes: 256 * 1024 * 1024 };

export interface CtfdImportResult {
  dry_run: boolean;
  report: CtfdReport;
  /** What was written (absent on a dry run). */
  imported?: { categories: number; challenges: number; files: number; users: number; teams: number; solves: number };
}

export const IMPORT_RUNNING = "Another import is running. Try again when it has finished.";
export const IMPORT_TOO_LONG = "The import took longer than the time it is allowed, so nothing was imported. Import fewer players (leave players out, or split the history), or try again when the server is less busy.";
const NAME_TAKEN = "An account or team name was taken while importing. Run the dry run again and import once more.";

const NOT_CTFD = "This is not a CTFd export (the .zip file from CTFd's Admin Panel → Config → Backup → Export), or it is damaged.";
const TABLE_ENTRY = /^db\/([A-Za-z0-9_]+)\.json$/;
const UPLOAD_ENTRY = /^uploads\/([A-Za-z0-9_-]+)\/([^/]+)$/;
const DIRECTORY_ENTRY = /^(db|uploads|uploads\/[A-Za-z0-9_-]+)\/$/;
/**
 * Solves are recorded one at a time, in order, so first bloods and decay come out as they did:
 * a large event's history takes longer than the other imports' few bulk statements.
 */
const CTFD_TX = { ...IMPORT_TX, timeout: 600_000 } as const;

/** The placeholder password of an imported account: no password matches it (see verifyPassword). */
export const IMPORTED_PASSWORD = "!ctfd-import";

interface ReadArchive {
  tables: CtfdTables;
  /** Staged upload folders by CTFd location (`{folder}/{name}`). */
  uploads: Map<string, { folder: string; name: string; size: number }>;
}

function emptyTables(): CtfdTables {
  return Object.fromEntries(CTFD_TABLES.map((name) => [name, []])) as unknown as CtfdTables;
}

const KNOWN_TABLES = new Set<string>(CTFD_TABLES);

async function openZip(file: string): Promise<yauzl.ZipFile> {
  try {
    // Names are checked here, not by the library (which would turn backslashes into slashes).
    return await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch {
    throw refuse(NOT_CTFD);
  }
}

/** A member's bytes through the limits: its own and what is left of the total. */
async function readMember(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  name: string,
  max: number,
  budget: { left: number; total: number },
  sink: NodeJS.WritableStream | Buffer[],
  overMax?: string,
): Promise<number> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw refuse(`"${name}" cannot be read: the archive is damaged or encrypted.`);
  }
  const own = byteLimit(max, overMax ?? `"${name}" is larger than the limit of ${megabytes(max)}.`);
  const total = byteLimit(budget.left, `The archive's contents are larger than the limit of ${megabytes(budget.total)}.`);
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    if (Array.isArray(sink)) {
      await pipeline(stream, own, total, count, async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) sink.push(chunk);
      });
    } else {
      await pipeline(stream, own, total, count, sink);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // yauzl counts the bytes it inflates against the member's header and stops at the first one too many.
    if (/too many bytes|too few bytes/i.test((error as Error).message)) throw refuse(`"${name}" does not decompress to the size its header gives: the archive is damaged or built to exhaust the server.`);
    // zlib's errors (Z_DATA_ERROR and the like) and yauzl's own mean damaged data; a failed write is the server's.
    const code = (error as { code?: unknown }).code;
    if ((typeof code === "string" && code.startsWith("Z_")) || !(typeof code === "string" && /^E[A-Z]+$/.test(code))) throw refuse(`"${name}" cannot be read: the archive is damaged.`);
    throw error;
  }
  budget.left -= size;
  return size;
}

/** Tables that only matter with the players: not decompressed when they are left out. */
const PLAYER_ONLY_TABLES = new Set(["submissions"]);

/** Of submissions only the correct ones' ids and dates are needed (for the solves' times). */
function slimmed(table: CtfdTableName, rows: CtfdRow[]): CtfdRow[] {
  if (table !== "submissions") return rows;
  return rows.filter((row) => row.type === "correct").map((row) => ({ id: row.id, date: row.date }));
}

async function readArchive(file: string, staging: string, limits: CtfdLimits, players: boolean): Promise<ReadArchive> {
  const zip = await openZip(file);
  const read: ReadArchive = { tables: emptyTables(), uploads: new Map() };
  const seen = new Set<string>();
  try {
    if (zip.entryCount > limits.maxEntries) throw refuse(`The archive has more than ${limits.maxEntries} entries.`);
    const budget = { left: limits.maxTotalBytes, total: limits.maxTotalBytes };
    let tableBytes = 0;
    let foundTables = 0;
    const entries = zip.eachEntry();
    for (;;) {
      let next: IteratorResult<yauzl.Entry>;
      try {
        next = await entries.next();
      } catch {
        // A central directory that breaks off or lies is the archive's fault, never the server's.
        throw refuse(NOT_CTFD);
      }
      if (next.done) break;
      const entry = next.value;
      const raw = Buffer.isBuffer(entry.fileName) ? (entry.fileName as Buffer).toString("utf8") : entry.fileName;
      const name = checkedName(raw);
      // Unix permission bits live in the high half of the external attributes; 0o120000 is a link.
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (mode === 0o120000) throw refuse(`The archive may not contain links ("${raw}").`);
      if (seen.has(name)) throw refuse(`The archive contains "${raw}" twice.`);
      seen.add(name);
      if (name.endsWith("/")) {
        if (!DIRECTORY_ENTRY.test(name)) throw refuse(`Unexpected entry in the archive: "${raw}".`);
        continue;
      }
      if (entry.isEncrypted()) throw refuse(`"${raw}" is encrypted.`);
      const table = TABLE_ENTRY.exec(name);
      const upload = UPLOAD_ENTRY.exec(name);
      if (!table && !upload) throw refuse(`Unexpected entry in the archive: "${raw}".`);
      // Tables this import does not read (pages, tracking, plugins' own) are not decompressed at all.
      if (table && (!KNOWN_TABLES.has(table[1]!) || (!players && PLAYER_ONLY_TABLES.has(table[1]!)))) {
        foundTables += 1;
        continue;
      }
      const max = table ? limits.maxManifestBytes : limits.maxFileBytes;
      if (entry.uncompressedSize > max) throw refuse(`"${raw}" is larger than the limit of ${megabytes(max)}.`);
      if (entry.uncompressedSize > budget.left) throw refuse(`The archive's contents are larger than the limit of ${megabytes(limits.maxTotalBytes)}.`);
      if (table) {
        foundTables += 1;
        const tablesLeft = limits.maxTablesBytes - tableBytes;
        const tooMuch = `The archive's tables (db/) are larger than the limit of ${megabytes(limits.maxTablesBytes)} together.`;
        if (entry.uncompressedSize > tablesLeft) throw refuse(tooMuch);
        const chunks: Buffer[] = [];
        const own = Math.min(max, tablesLeft);
        const size = await readMember(zip, entry, raw, own, budget, chunks, own < max ? tooMuch : undefined);
        tableBytes += size;
        const name = table[1] as CtfdTableName;
        read.tables[name] = slimmed(name, parseTable(raw, Buffer.concat(chunks)));
        continue;
      }
      const [, folder, fileName] = upload as unknown as [string, string, string];
      const into = path.join(staging, String(read.uploads.size));
      await mkdir(into, { recursive: true });
      const stored = safeFileName(fileName);
      const size = await readMember(zip, entry, raw, max, budget, createWriteStream(path.join(into, stored), { flags: "wx" }));
      read.uploads.set(`${folder}/${fileName}`, { folder: into, name: stored, size });
    }
    if (foundTables === 0 || !seen.has("db/challenges.json")) throw refuse(`${NOT_CTFD} It has no db/challenges.json.`);
  } finally {
    zip.close();
  }
  return read;
}

/** One `db/{table}.json`: `{count, results: [...], meta}`; its rows must be objects. */
function parseTable(name: string, bytes: Buffer): CtfdRow[] {
  const text = bytes.toString("utf8");
  // An empty table file is how CTFd writes a table without rows.
  if (text.trim() === "") return [];
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw refuse(`${name} is not valid JSON.`);
  const results = (parsed.value as { results?: unknown } | null)?.results;
  if (!Array.isArray(results) || results.some((row) => typeof row !== "object" || row === null || Array.isArray(row))) {
    throw refuse(`${name} is not a CTFd table (an object with a "results" list of rows).`);
  }
  // PostgreSQL text cannot hold NUL: refused here as everywhere else, not by the database.
  refuseUnstorableText(results);
  return results as CtfdRow[];
}

/** Lower-cased usernames, emails and team names of the archive that are already taken here. */
async function takenNames(db: Prisma.TransactionClient, tables: CtfdTables): Promise<{ usernames: Set<string>; emails: Set<string>; teams: Set<string> }> {
  const lower = (rows: CtfdRow[], key: string) => rows.map((r) => (typeof r[key] === "string" ? (r[key] as string).trim().toLowerCase() : "")).filter((v) => v !== "");
  const names = [...lower(tables.users, "name"), ...lower(tables.teams, "name")];
  const [users, emails, teams] = await Promise.all([
    db.$queryRaw<{ v: string }[]>`SELECT lower(username::text) AS v FROM users WHERE lower(username::text) = ANY(${names}::text[])`,
    db.$queryRaw<{ v: string }[]>`SELECT lower(email::text) AS v FROM users WHERE lower(email::text) = ANY(${lower(tables.users, "email")}::text[])`,
    db.$queryRaw<{ v: string }[]>`SELECT lower(name::text) AS v FROM teams WHERE lower(name::text) = ANY(${names}::text[])`,
  ]);
  return { usernames: new Set(users.map((r) => r.v)), emails: new Set(emails.map((r) => r.v)), teams: new Set(teams.map((r) => r.v)) };
}

/**
 * Reads a CTFd export (staff; audited when it writes). With `dryRun` it answers the report and
 * changes nothing; otherwise it imports what the report says maps, in one transaction, beside what
 * the event already has. `players` adds users, teams and solves to the challenges.
 */
export async function importCtfd(
  ctx: StaffContext,
  options: {
    dataDir: string;
    body: Readable;
    dryRun: boolean;
    players: boolean;
    limits?: Partial<CtfdLimits>;
    /** The transaction's allowance in ms (CTFD_TX's by default). */
    timeout?: number;
  },
): Promise<CtfdImportResult> {
  const limits = { ...CTFD_LIMITS, ...options.limits };
  const staging = new FileStaging(options.dataDir);
  try {
    await mkdir(staging.dir, { recursive: true });
    const zipFile = path.join(staging.dir, "upload.zip");
    try {
      await pipeline(options.body, byteLimit(limits.maxArchiveBytes, `The archive is larger than the limit of ${megabytes(limits.maxArchiveBytes)}.`), createWriteStream(zipFile, { flags: "wx" }));
    } catch (error) {
      options.body.destroy();
      if (error instanceof AppError) throw error;
      throw refuse("The upload did not complete.");
    }
    const archive = await readArchive(zipFile, path.join(staging.dir, "uploads"), limits, options.players);
    const uploads = new Set(archive.uploads.keys());

    if (options.dryRun) {
      const mapping = mapCtfdExport(archive.tables, { players: options.players, uploads, taken: await takenNames(ctx.db, archive.tables) });
      return { dry_run: true, report: mapping.report };
    }

    const outcome = await ctx.db
      .$transaction(async (tx) => {
        // One import at a time (ours and CTFd's); names are checked under the lock. A second one
        // is answered at once rather than waiting out the first inside its own time allowance.
        const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext('flagship:import_event')) AS locked`;
        if (!lock?.locked) throw refuse(IMPORT_RUNNING);
        const mapping = mapCtfdExport(archive.tables, { players: options.players, uploads, taken: await takenNames(tx, archive.tables) });
        const byCtfdId = new Map(mapping.categories.flatMap((c) => c.challenges).map((c) => [c.id, c]));
        // Files get keys of their own, so they never meet a file already stored.
        for (const file of mapping.files) {
          const staged = archive.uploads.get(file.location)!;
          const key = randomBytes(16).toString("hex");
          await staging.place(staged.folder, key, staged.name);
          const challenge = byCtfdId.get(file.challenge)!;
          challenge.files.push({ name: staged.name, url: `/files/${key}/${encodeURIComponent(staged.name)}`, size: staged.size });
        }
        const written = await writeCategories(tx, mapping.categories);
        const all = mapping.categories.flatMap((c) => c.challenges);
        const challengeIds = new Map(all.map((c, i) => [c.id, written.challengeIds[i]!]));
        const hidden = new Set(all.filter((c) => c.hidden).map((c) => c.id));
        const players = await writePlayers(tx, mapping);
        for (const solve of mapping.solves) {
          await recordSolveIn(tx, {
            challengeId: challengeIds.get(solve.challenge)!,
            userId: players.users.get(solve.user)!,
            teamId: players.teams.get(solve.team)!,
            scoring: true,
            firstBloodAllowed: !hidden.has(solve.challenge),
            ...(solve.at && { at: solve.at }),
          });
        }
        const imported = {
          categories: written.categoryIds.length,
          challenges: written.challengeIds.length,
          files: mapping.files.length,
          users: players.users.size,
          teams: players.teams.size,
          solves: mapping.solves.length,
        };
        await writeAudit(tx, ctx.actor, "import_ctfd", {
          ...imported,
          players: options.players,
          categoryIds: written.categoryIds,
          userIds: [...players.users.values()],
          teamIds: [...players.teams.values()],
        });
        return { report: mapping.report, imported, challengeIds: written.challengeIds };
      }, { ...CTFD_TX, ...(options.timeout !== undefined && { timeout: options.timeout }) })
      .catch((error: unknown) => {
        if (error instanceof AppError) throw error;
        if (isTransactionTimeout(error)) throw refuse(IMPORT_TOO_LONG);
        const model = uniqueViolationModel(error);
        if (model === "User" || model === "Team") throw refuse(NAME_TAKEN);
        if (isUniqueViolation(error)) throw refuse("Something in the archive clashes with what the event already has, so nothing was imported.");
        throw error;
      });
    staging.commit();
    await announceChallengeChanges(ctx, []);
    if (outcome.imported.users > 0 || outcome.imported.teams > 0 || outcome.imported.solves > 0) {
      // New accounts, teams and solves move the standings and every player's state, as a solve does.
      await invalidatePlayerState(ctx, { all: true });
      await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
    }
    return { dry_run: false, report: outcome.report, imported: outcome.imported };
  } finally {
    // Files placed by an import that then failed go again; staging (and the upload) always goes.
    await staging.cleanup();
  }
}

/** Teams, then users in them, then team owners: a handful of statements whatever the numbers. */
async function writePlayers(tx: Prisma.TransactionClient, mapping: ReturnType<typeof mapCtfdExport>): Promise<{ users: Map<number, number>; teams: Map<number, number> }> {
  const teams = new Map<number, number>();
  const users = new Map<number, number>();
  if (mapping.teams.length > 0) {
    const rows = await tx.team.createManyAndReturn({
      data: mapping.teams.map((t) => ({ name: t.name, password: randomBytes(12).toString("hex"), isVisible: !t.hidden, ...(t.created && { createdAt: t.created }) })),
      select: { id: true, name: true },
    });
    const byName = new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
    for (const team of mapping.teams) teams.set(team.id, byName.get(team.name.toLowerCase())!);
  }
  if (mapping.users.length > 0) {
    const rows = await tx.user.createManyAndReturn({
      data: mapping.users.map((u) => ({
        username: u.username,
        email: u.email,
        passwordHash: IMPORTED_PASSWORD,
        isVisible: !u.hidden,
        isActive: !u.banned,
        emailVerified: u.verified,
        teamId: u.team === null ? null : (teams.get(u.team) ?? null),
        ...(u.joined && { dateJoined: u.joined }),
      })),
      select: { id: true, username: true },
    });
    const byName = new Map(rows.map((r) => [r.username.toLowerCase(), r.id]));
    for (const user of mapping.users) users.set(user.id, byName.get(user.username.toLowerCase())!);
  }
  const owners = mapping.teams.filter((t) => t.captain !== null && users.has(t.captain)).map((t) => ({ team: teams.get(t.id)!, owner: users.get(t.captain!)! }));
  if (owners.length > 0) {
    await tx.$executeRaw`UPDATE teams AS t SET owner_id = v.owner FROM unnest(${owners.map((o) => o.team)}::int[], ${owners.map((o) => o.owner)}::int[]) AS v(id, owner) WHERE t.id = v.id`;
  }
  return { users, teams };
}
