import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { databaseUrl, startEmbeddedPostgres } from "../embedded.ts";
import { applyMigrations } from "../migrate.ts";
import "./database.ts";
import { startRedis } from "./redis.ts";

export const TEMPLATE_DATABASE = "flagship_test_template";

/**
 * Starts one PostgreSQL for the whole run (the embedded one, or the server at DATABASE_URL) and
 * builds a migrated template database; each test file clones it into a database of its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let baseUrl: string;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    baseUrl = databaseUrl(process.env.DATABASE_URL, "postgres");
  } else {
    const dir = await mkdtemp(path.join(os.tmpdir(), "flagship-test-pg-"));
    const server = await startEmbeddedPostgres({ dataDir: dir, fast: true });
    baseUrl = server.baseUrl;
    stop = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await applyMigrations(databaseUrl(baseUrl, TEMPLATE_DATABASE));

  project.provide("postgresBaseUrl", baseUrl);
  project.provide("templateDatabase", TEMPLATE_DATABASE);

  const redis = await startRedis();
  project.provide("redisUrl", redis.url);
  return async () => {
    await redis.stop();
    await stop();
  };
}
