import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "../client.ts";
import { databaseUrl } from "../embedded.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresBaseUrl: string;
    templateDatabase: string;
    /** A real Redis for the run ("" when none could be started). */
    redisUrl: string;
  }
}

export interface TestDatabase {
  db: Db;
  url: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database of this test file's own, cloned from the run's template. Data from
 * other files can never be seen, so files run in parallel without cleanup.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = inject("postgresBaseUrl");
  const template = inject("templateDatabase");
  const name = `flagship_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(baseUrl, name);
  const db = createDb(url, { poolSize: 20 });
  return {
    db,
    url,
    async close() {
      await db.$disconnect();
      const drop = new pg.Client({ connectionString: baseUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await drop.end();
    },
  };
}
