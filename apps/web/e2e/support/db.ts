import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import argon2 from "argon2";
import pg from "pg";

/**
 * Direct access to the e2e server's embedded PostgreSQL, for arranging a journey's starting state
 * (users, tokens, config) without clicking through screens another test already covers.
 */
const pools = new Map<string, pg.Pool>();
export function database(): pg.Pool {
  // The challenge-server journeys run against a second server with a database of its own.
  const dataDir = process.env.E2E_DB_DIR ?? process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run through playwright.config.ts");
  let pool = pools.get(dataDir);
  if (!pool) {
    const port = readFileSync(path.join(dataDir, "postgres.port"), "utf8").trim();
    pool = new pg.Pool({ connectionString: `postgresql://flagship:flagship@127.0.0.1:${port}/flagship`, max: 4 });
    pools.set(dataDir, pool);
  }
  return pool;
}

export const E2E_PASSWORD = "Correct-Horse-Battery-Staple-42";
let hash: Promise<string> | undefined;

let counter = 0;
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(3).toString("hex")}`;
}

export interface SeededUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

/** Creates a verified user (staff when asked) with a live API token. */
export async function seedUser(options: { isStaff?: boolean; username?: string; teamId?: number | null } = {}): Promise<SeededUser> {
  hash ??= argon2.hash(E2E_PASSWORD, { type: argon2.argon2id });
  const username = options.username ?? unique("player");
  const email = `${username}@example.test`;
  const db = database();
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO users (username, email, password_hash, is_staff, email_verified, team_id) VALUES ($1, $2, $3, $4, true, $5) RETURNING id`,
    [username, email, await hash, options.isStaff ?? false, options.teamId ?? null],
  );
  const id = rows[0]!.id;
  const token = randomBytes(32).toString("hex");
  await db.query(`INSERT INTO auth_tokens (key_hash, user_id) VALUES ($1, $2)`, [createHash("sha256").update(token).digest("hex"), id]);
  return { id, username, email, password: E2E_PASSWORD, token };
}

let configStaff: Promise<SeededUser> | undefined;

/**
 * Sets a config key as staff do, through the server: its config cache is dropped at once and the
 * change is announced, so the very next page load sees it (a write behind the server's back would
 * stay unseen for up to the cache's lifetime, and a journey could load the old value).
 */
export async function setConfig(key: string, value: unknown): Promise<void> {
  configStaff ??= seedUser({ isStaff: true });
  const staff = await configStaff;
  const port = Number(process.env.E2E_PORT ?? 8181);
  const response = await fetch(`http://127.0.0.1:${port}/api/v2/config/${key}/`, {
    method: "POST",
    headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" },
    body: JSON.stringify({ value }),
  });
  if (response.status !== 201) throw new Error(`setting ${key} failed: ${response.status} ${await response.text()}`);
}

/** Opens the app already signed in as `user` (the token the app keeps in local storage). */
export async function signIn(page: Page, user: Pick<SeededUser, "token">): Promise<void> {
  await page.addInitScript((token) => window.localStorage.setItem("flagship.token", token), user.token);
}
