import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { AppError } from "@flagship/shared";

/**
 * What every archive import shares (our own event archive and a CTFd export): refusals with a
 * reason, byte limits counted on the bytes really read, entry names checked before anything is
 * written, and files staged in a private folder that move into storage only once the import's
 * transaction may commit, and leave it again if it does not.
 */

const MB = 1024 * 1024;

export const refuse = (message: string) => new AppError("bad_request", { message });

export const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** Passes at most `max` bytes through, then fails with `message`. */
export function byteLimit(max: number, message: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) callback(refuse(message));
      else callback(null, chunk);
    },
  });
}

/** An entry's name, checked: relative, no `..`, no backslashes or control characters. */
export function checkedName(raw: string): string {
  const name = raw.replace(/^(\.\/)+/, "");
  const unsafe =
    name.startsWith("/") ||
    /^[A-Za-z]:/.test(name) ||
    name.includes("\\") ||
    /\p{Cc}/u.test(name) ||
    name.split("/").some((segment) => segment === ".." || segment === ".");
  if (unsafe) throw refuse(`The archive contains an unsafe path: "${raw}".`);
  return name;
}

/**
 * A private folder under the data directory for an import's files. `place` moves a staged folder
 * (holding one file) into storage under a key; `commit` keeps what was placed; `cleanup` removes
 * whatever was placed without a commit, and always the staging folder itself.
 */
export class FileStaging {
  readonly dir: string;
  readonly storage: string;
  private placed: string[] = [];

  constructor(dataDir: string) {
    this.storage = path.join(dataDir, "files");
    this.dir = path.join(dataDir, `.import-${randomBytes(8).toString("hex")}`);
  }

  /** Moves `folder` (inside the staging folder, holding the single file `name`) to storage as `key`; false when the identical file is already there. */
  async place(folder: string, key: string, name: string): Promise<boolean> {
    await mkdir(this.storage, { recursive: true });
    const target = path.join(this.storage, key);
    const existing = await readdir(target).catch(() => null);
    if (existing) {
      // A folder left by an earlier import of the same archive is kept when it holds the same file.
      const [staged, there] = await Promise.all([stat(path.join(folder, name)), stat(path.join(target, name)).catch(() => null)]);
      if (existing.length === 1 && there?.isFile() && there.size === staged.size) return false;
      throw new AppError("bad_request", { message: `Storage already holds a different file under the key ${key}.` });
    }
    await rename(folder, target);
    this.placed.push(key);
    return true;
  }

  commit(): void {
    this.placed.length = 0;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.placed.map((key) => rm(path.join(this.storage, key), { recursive: true, force: true })));
    this.placed.length = 0;
    await rm(this.dir, { recursive: true, force: true });
  }
}
