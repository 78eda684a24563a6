import pg from "pg";
import { createDb, type Db } from "./client.ts";
import { databaseUrl, startEmbeddedPostgres } from "./embedded.ts";
import { applyMigrations } from "./migrate.ts";

export interface Database {
  db: Db;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

const EMBEDDED_DATABASE = "flagship";

export async function ensureDatabase(baseUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Connects to `databaseUrl` or, when it is unset, starts the embedded PostgreSQL under `dataDir`.
 * Pending migrations are applied either way. `close` disconnects and stops an embedded server.
 */
export async function connectDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** The embedded PostgreSQL's port; unset: the one it had, or a free one. */
  embeddedPort?: number | undefined;
  poolSize?: number;
  log?: (message: string) => void;
}): Promise<Database> {
  const log = options.log ?? (() => {});
  let url = options.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    log(`Starting the embedded PostgreSQL under ${options.dataDir}`);
    const server = await startEmbeddedPostgres({ dataDir: options.dataDir, port: options.embeddedPort, log });
    stopEmbedded = server.stop;
    await ensureDatabase(server.baseUrl, EMBEDDED_DATABASE);
    url = databaseUrl(server.baseUrl, EMBEDDED_DATABASE);
  }
  try {
    const ran = await applyMigrations(url);
    if (ran.length > 0) log(`Applied migrations: ${ran.join(", ")}`);
  } catch (error) {
    await stopEmbedded?.();
    throw error;
  }
  const db = createDb(url, options.poolSize === undefined ? {} : { poolSize: options.poolSize });
  return {
    db,
    url,
    embedded: stopEmbedded !== undefined,
    async close() {
      await db.$disconnect();
      await stopEmbedded?.();
    },
  };
}
