import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { AppError, type Config, EVENT_ARCHIVE_LIMITS, type EventData, parseJsonText, PORT_MESSAGES, refuseUnstorableText, validateEventData } from "@flagship/shared";
import tar from "tar-stream";
import { writeAudit } from "../audit/write-audit.ts";
import { announceChallengeChanges } from "../challenges/changes.ts";
import { openStoredFile, safeFileName } from "../challenges/file-storage.ts";
import type { StaffContext } from "../guards.ts";
import { byteLimit, checkedName, FileStaging, megabytes, refuse } from "./archive-files.ts";
import { type CategoryExport, exportEventCategories, requireImportEntire } from "./export-content.ts";
import { accept, IMPORT_TX, writeCategories } from "./import-content.ts";

/**
 * Whole-event export and import (the importEntire experiment) as a gzip-compressed tar archive:
 *
 *   event.json                 { version: 1, config, categories } (challenges with hints, files, unlocks)
 *   files/{key}/{name}         the bytes of every challenge file stored on this server
 *
 * Stored files keep their key, so their URLs (and links to them in descriptions) stay valid.
 * Reading is defensive: only the two kinds of entry above, regular files only, no absolute paths or
 * `..`, no links, and the limits below; anything else refuses the whole archive and changes nothing.
 */

export type ArchiveLimits = { [K in keyof typeof EVENT_ARCHIVE_LIMITS]: number };
export const ARCHIVE_LIMITS: ArchiveLimits = EVENT_ARCHIVE_LIMITS;

export const EVENT_ARCHIVE_NAME = "flagship-event.tar.gz";
const MANIFEST = "event.json";
const KEY = /^[0-9a-f]{32}$/;
const FILE_ENTRY = /^files\/([0-9a-f]{32})\/([^/]+)$/;

/** The key and stored name of a file URL on this server (`/files/{key}/{name}`), or null for any other URL. */
function storedFileOf(url: string): { key: string; name: string } | null {
  const match = /^\/files\/([^/]+)\/([^/?#]+)$/.exec(url);
  if (!match || !KEY.test(match[1]!)) return null;
  try {
    return { key: match[1]!, name: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

function localFiles(categories: readonly Pick<CategoryExport, "challenges">[]): { key: string; name: string; challenge: string }[] {
  const seen = new Map<string, { key: string; name: string; challenge: string }>();
  for (const category of categories) {
    for (const challenge of category.challenges) {
      for (const file of challenge.files) {
        const stored = storedFileOf(file.url);
        if (stored && !seen.has(`${stored.key}/${stored.name}`)) seen.set(`${stored.key}/${stored.name}`, { ...stored, challenge: challenge.name });
      }
    }
  }
  return [...seen.values()].sort((a, b) => (a.key === b.key ? a.name.localeCompare(b.name) : a.key < b.key ? -1 : 1));
}

const FIXED_HEADER = { mode: 0o644, uid: 0, gid: 0, mtime: new Date(0) } as const;

/**
 * The event as an archive stream (staff, importEntire; audited). Every stored file is looked up
 * before the first byte is sent, so a file missing from storage is an error, not a broken download.
 */
export async function exportEventArchive(ctx: StaffContext, options: { dataDir: string }): Promise<{ filename: string; stream: Readable }> {
  await requireImportEntire(ctx);
  const [config, categories] = await Promise.all([ctx.config.all(), exportEventCategories(ctx)]);
  const manifest = Buffer.from(`${JSON.stringify({ version: 1, config, categories }, null, 2)}\n`);
  const files = await Promise.all(
    localFiles(categories).map(async (file) => {
      const stored = await openStoredFile(options.dataDir, file.key, file.name);
      if (!stored) throw new AppError("not_found", { message: `The file "${file.name}" of the challenge "${file.challenge}" is missing from storage.` });
      return { ...file, stored };
    }),
  );
  await writeAudit(ctx.db, ctx.actor, "export_event", { categories: categories.length, challenges: categories.reduce((n, c) => n + c.challenges.length, 0), files: files.length });

  const pack = tar.pack();
  const out = new PassThrough();
  pipeline(pack, createGzip(), out).catch((error: unknown) => out.destroy(error as Error));
  void (async () => {
    try {
      await new Promise<void>((resolve, reject) => pack.entry({ ...FIXED_HEADER, name: MANIFEST, size: manifest.length }, manifest, (error) => (error ? reject(error) : resolve())));
      for (const file of files) {
        await pipeline(file.stored.stream(), pack.entry({ ...FIXED_HEADER, name: `files/${file.key}/${file.stored.name}`, size: file.stored.size }));
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
    }
  })();
  return { filename: EVENT_ARCHIVE_NAME, stream: out };
}

interface ArchiveContents {
  manifest: Buffer | null;
  /** Files written to the staging folder, as "key/name". */
  files: Set<string>;
}

/** Reads the archive into memory (event.json) and the staging folder (files), enforcing every limit. */
async function readArchive(body: Readable, staging: string, limits: ArchiveLimits): Promise<ArchiveContents> {
  const contents: ArchiveContents = { manifest: null, files: new Set() };
  const keys = new Set<string>();
  const gunzip = createGunzip();
  const extract = tar.extract();
  // Errors of the decompressor or the tar parser mean the upload is not a readable archive; any
  // other error (storage, say) is the server's own and is not blamed on the file.
  let unreadable = false;
  for (const stream of [gunzip, extract]) stream.once("error", () => (unreadable = true));
  const reading = pipeline(body, byteLimit(limits.maxArchiveBytes, `The archive is larger than the limit of ${megabytes(limits.maxArchiveBytes)}.`), gunzip, extract);
  // Failures of the stream also end the loop below, which reports them.
  reading.catch(() => undefined);
  let entries = 0;
  let total = 0;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      if (++entries > limits.maxEntries) throw refuse(`The archive has more than ${limits.maxEntries} entries.`);
      const name = checkedName(header.name);
      if (header.type === "symlink" || header.type === "link") throw refuse(`The archive may not contain links ("${header.name}").`);
      if (header.type === "directory") {
        if (name !== "" && name !== "files" && name !== "files/" && !/^files\/[0-9a-f]{32}\/?$/.test(name)) throw refuse(`Unexpected entry in the archive: "${header.name}".`);
        entry.resume();
        continue;
      }
      if (header.type !== "file") throw refuse(`The archive may only contain regular files ("${header.name}").`);
      const size = header.size ?? 0;
      total += size;
      if (total > limits.maxTotalBytes) throw refuse(`The archive's contents are larger than the limit of ${megabytes(limits.maxTotalBytes)}.`);
      if (name === MANIFEST) {
        if (contents.manifest) throw refuse(`The archive contains ${MANIFEST} twice.`);
        if (size > limits.maxManifestBytes) throw refuse(`${MANIFEST} is larger than the limit of ${megabytes(limits.maxManifestBytes)}.`);
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        contents.manifest = Buffer.concat(chunks);
        continue;
      }
      const match = FILE_ENTRY.exec(name);
      if (!match || safeFileName(match[2]!) !== match[2]) throw refuse(`Unexpected entry in the archive: "${header.name}".`);
      const [, key, fileName] = match as unknown as [string, string, string];
      // Storage holds one file per key, as an upload makes it.
      if (keys.has(key)) throw refuse(`The archive contains two files under "files/${key}".`);
      keys.add(key);
      if (size > limits.maxFileBytes) throw refuse(`"${name}" is larger than the limit of ${megabytes(limits.maxFileBytes)}.`);
      await mkdir(path.join(staging, key), { recursive: true });
      await pipeline(entry, byteLimit(limits.maxFileBytes, `"${name}" is larger than the limit of ${megabytes(limits.maxFileBytes)}.`), createWriteStream(path.join(staging, key, fileName), { flags: "wx" }));
      contents.files.add(`${key}/${fileName}`);
    }
    await reading;
  } catch (error) {
    extract.destroy();
    body.destroy();
    if (error instanceof AppError) throw error;
    if (!unreadable) throw error;
    throw refuse("This is not an event archive (a .tar.gz file exported by Flagship), or it is damaged.");
  }
  return contents;
}

/** event.json parsed and validated, and its stored files matched one to one with the archive's. */
function checkContents(contents: ArchiveContents): EventData {
  if (!contents.manifest) throw refuse(`The archive has no ${MANIFEST}.`);
  const parsed = parseJsonText(contents.manifest.toString("utf8"));
  if (!parsed.ok) throw refuse(`${MANIFEST}: ${PORT_MESSAGES.parseFailed}`);
  // PostgreSQL text cannot hold NUL: refused here as everywhere else, not by the database.
  refuseUnstorableText(parsed.value);
  const data = accept(validateEventData(parsed.value));
  const wanted = localFiles(data.categories as CategoryExport[]);
  for (const file of wanted) {
    if (!contents.files.has(`${file.key}/${file.name}`)) throw refuse(`The archive lacks the file "${file.name}" of the challenge "${file.challenge}".`);
  }
  const used = new Set(wanted.map((f) => `${f.key}/${f.name}`));
  for (const file of contents.files) if (!used.has(file)) throw refuse(`"files/${file}" is not a file of any challenge.`);
  return data;
}

/**
 * Imports an event archive into an event without categories (staff, importEntire; audited). The
 * whole archive is read and checked before anything is written; then the configuration,
 * categories, challenges, hints, files and unlocks are written in one transaction, and the stored
 * files are moved into storage only once all of that succeeded (and removed again if it fails).
 */
export async function importEventArchive(
  ctx: StaffContext,
  options: { dataDir: string; body: Readable; limits?: Partial<ArchiveLimits> },
): Promise<{ categories: number; challenges: number; files: number }> {
  await requireImportEntire(ctx);
  const limits = { ...ARCHIVE_LIMITS, ...options.limits };
  const staging = new FileStaging(options.dataDir);
  // Refused before a byte of the upload is read; checked again under the lock below.
  if ((await ctx.db.category.count()) > 0) throw notEmpty();
  try {
    const contents = await readArchive(options.body, staging.dir, limits);
    const data = checkContents(contents);
    const config = data.config as Partial<Config>;
    const result = await ctx.db.$transaction(async (tx) => {
      // One import at a time, and only into an event that is still empty.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('flagship:import_event'))`;
      if ((await tx.category.count()) > 0) throw notEmpty();
      for (const [key, value] of Object.entries(config)) {
        await tx.config.upsert({ where: { key }, create: { key, value: value as object }, update: { value: value as object } });
      }
      for (const file of contents.files) {
        const [key, name] = file.split("/") as [string, string];
        await staging.place(path.join(staging.dir, key), key, name);
      }
      const written = await writeCategories(tx, data.categories);
      await writeAudit(tx, ctx.actor, "import_event", { categories: written.categoryIds, challenges: written.challengeIds.length, files: contents.files.size, config: Object.keys(config) });
      return { categories: written.categoryIds.length, challenges: written.challengeIds.length, files: contents.files.size };
    }, IMPORT_TX);
    staging.commit();
    ctx.config.invalidate();
    for (const key of Object.keys(config)) await ctx.events.publish({ kind: "internal", name: "config_changed", data: { key } });
    await announceChallengeChanges(ctx, []);
    return result;
  } finally {
    // Files placed by an import that then failed go again; staging always goes.
    await staging.cleanup();
  }
}

function notEmpty(): AppError {
  return new AppError("bad_request", { message: "Events can only be imported into an empty event: remove every category first." });
}
