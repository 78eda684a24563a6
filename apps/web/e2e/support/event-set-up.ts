import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * The journeys play an event that is already set up: before any of them runs, each e2e server's
 * database gets its first staff account, as the first-run setup would have made it. Without one,
 * the server would lead whichever journey came first to the setup (first-run.spec.ts starts a
 * server of its own for that).
 */
export default async function setUpEvents(): Promise<void> {
  for (const dataDir of [process.env.E2E_DATA_DIR, process.env.E2E_CS_DATA_DIR]) {
    if (!dataDir) continue;
    let port: string;
    try {
      port = readFileSync(path.join(dataDir, "postgres.port"), "utf8").trim();
    } catch {
      continue;
    }
    const client = new pg.Client({ connectionString: `postgresql://flagship:flagship@127.0.0.1:${port}/flagship` });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO users (username, email, password_hash, is_staff, email_verified)
         SELECT 'organiser', 'organiser@example.test', '!', true, true WHERE NOT EXISTS (SELECT 1 FROM users)`,
      );
    } finally {
      await client.end();
    }
  }
}
