import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";

/**
 * Challenge files uploaded by staff, stored under DATA_DIR/files/{key}/{name}. The key is 128
 * random bits, so a file's URL cannot be guessed before its challenge shows it; names are reduced
 * to one safe path segment, and reads check the resolved path stays inside the key's folder.
 */

/** The largest upload accepted. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
const KEY_PATTERN = /^[0-9a-f]{32}$/;

/** One path segment: no separators, no leading dots, no control characters, at most 200 characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/[\p{Cc}<>:"|?*]/gu, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(0, 200);
  return cleaned === "" ? "file" : cleaned;
}

export interface StoredFile {
  name: string;
  url: string;
  size: number;
}

/** An upload in storage with the key of its folder, before it is attached to anything. */
export interface WrittenUpload extends StoredFile {
  key: string;
}

function limit(maxBytes: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      // The reason goes in the details too: RACTF's client shows those beside the code.
      const message = `Files may be at most ${maxBytes / 1024 / 1024} MB.`;
      if (seen > maxBytes) callback(new AppError("bad_request", { message, details: message }));
      else callback(null, chunk);
    },
  });
}

/**
 * Streams an upload to storage, neither audited nor attached yet: storeUpload and
 * createUploadedFile (manage-files.ts) do that. An upload cut short or too large leaves nothing.
 */
export async function writeUpload(options: { dataDir: string; name: string; body: Readable; maxBytes?: number }): Promise<WrittenUpload> {
  const name = safeFileName(options.name);
  const key = randomBytes(16).toString("hex");
  const dir = path.join(options.dataDir, "files", key);
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, name);
  try {
    await pipeline(options.body, limit(options.maxBytes ?? MAX_UPLOAD_BYTES), createWriteStream(target, { flags: "wx" }));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", { message: "The upload did not complete." });
  }
  const { size } = await stat(target);
  return { key, name, url: `/files/${key}/${encodeURIComponent(name)}`, size };
}

/** Removes an upload that was refused before anything pointed at it. */
export async function discardUpload(dataDir: string, upload: WrittenUpload): Promise<void> {
  if (!KEY_PATTERN.test(upload.key)) return;
  await rm(path.join(dataDir, "files", upload.key), { recursive: true, force: true });
}

/** Streams an upload to storage (audited); the caller then attaches it to a challenge by URL. */
export async function storeUpload(ctx: StaffContext, options: { dataDir: string; name: string; body: Readable; maxBytes?: number }): Promise<StoredFile> {
  const { key, name, url, size } = await writeUpload(options);
  await writeAudit(ctx.db, ctx.actor, "upload_file", { key, name, size });
  return { name, url, size };
}

/** The stored file for a download URL's key and name, or null (never a path outside storage). */
export async function openStoredFile(dataDir: string, key: string, name: string): Promise<{ name: string; size: number; stream: () => Readable } | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const dir = path.join(dataDir, "files", key);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return null;
  }
  // Only the name stored in the folder is served, whatever the URL's name says.
  const stored = entries.find((entry) => entry === name);
  if (!stored) return null;
  const file = path.join(dir, stored);
  if (path.dirname(file) !== dir) return null;
  const info = await stat(file);
  if (!info.isFile()) return null;
  return { name: stored, size: info.size, stream: () => createReadStream(file) };
}
