import os from "node:os";
import { startRedis } from "@flagship/db/redis";
import { ARGON2_OPTIONS, defaultHashConcurrency } from "@flagship/api";
import argon2 from "argon2";
import pg from "pg";
import WebSocket from "ws";
import { type Server, startServer } from "../harness.ts";
import { pageHeaders } from "./pages.ts";

/**
 * The start of an event, replayed against one and then two server copies on one PostgreSQL and
 * Redis (processes, as the harness runs them; the load generator deals requests out to the copies
 * in turn, as nginx does). N players (STAMPEDE_PLAYERS, default 2000) log in spread evenly over
 * STAMPEDE_LOGIN_SECONDS (60): each login is a real argon2 verification, so this part is
 * CPU-bound. Each player opens the login page first (a visitor's page, drawn by the server) and,
 * signed in, the challenge list page (drawn for them), as a browser does. Each player then opens one websocket and, until STAMPEDE_MIX_SECONDS (60) after the
 * last login is due, plays: challenge listings, leaderboard reads, wrong flags and now and then a
 * correct one, with about a second of thought between requests. Throttles are off (every player
 * comes from 127.0.0.1 here); the only 429s are the password hashing pool's when a login would
 * wait longer than HASH_MAX_WAIT_MS (or HASH_QUEUE already wait); the player then tries again
 * after the Retry-After it was given.
 */
const PASSWORD = "stampede password 2026";
const TEAM_SIZE = 4;
const CHALLENGES = 20;
const KINDS = ["login page", "login", "challenge list page", "challenge listing", "leaderboard", "wrong flag", "correct flag"] as const;
type Kind = (typeof KINDS)[number];

export interface StampedeOptions {
  players: number;
  loginSeconds: number;
  mixSeconds: number;
}

export interface KindStats {
  kind: Kind;
  count: number;
  p50: number;
  p99: number;
  errors: number;
  throttled: number;
}

export interface StampedeRun {
  copies: number;
  loginsPerSecond: number;
  /** From the first login sent to the last one answered. */
  loginSeconds: number;
  requestsPerSecond: number;
  kinds: KindStats[];
  sockets: number;
  socketErrors: number;
  errors: number;
  throttled: number;
}

export interface LoginWave {
  /** Which password hashes the players' accounts hold. */
  parameters: string;
  logins: number;
  seconds: number;
  loginsPerSecond: number;
  throttled: number;
  errors: number;
}

export interface StampedeResult {
  options: StampedeOptions;
  runs: StampedeRun[];
  waves: LoginWave[];
}

function optionsFromEnv(): StampedeOptions {
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0`);
    return value;
  };
  return { players: number("STAMPEDE_PLAYERS", 2000), loginSeconds: number("STAMPEDE_LOGIN_SECONDS", 60), mixSeconds: number("STAMPEDE_MIX_SECONDS", 60) };
}

interface Player {
  username: string;
}

/** `players` users in teams of four with one real argon2 hash, and the challenges they play. */
async function seed(url: string, prefix: string, players: number, hash: string): Promise<{ players: Player[]; challenges: { id: number; flag: string }[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    const teams = await client.query<{ id: number }>(
      `INSERT INTO teams (name, password) SELECT $1 || '-team-' || g, 'stampede-secret' FROM generate_series(1, $2) g RETURNING id`,
      [prefix, Math.ceil(players / TEAM_SIZE)],
    );
    const teamOf = Array.from({ length: players }, (_, i) => teams.rows[Math.floor(i / TEAM_SIZE)]!.id);
    const users = await client.query<{ username: string }>(
      `INSERT INTO users (username, email, password_hash, email_verified, team_id)
       SELECT $1 || '-' || i, $1 || '-' || i || '@example.test', $2, true, t FROM unnest($3::int[]) WITH ORDINALITY AS u(t, i)
       RETURNING username`,
      [prefix, hash, teamOf],
    );
    await client.query(`UPDATE teams t SET owner_id = (SELECT min(id) FROM users u WHERE u.team_id = t.id) WHERE t.name LIKE $1 || '-team-%'`, [prefix]);
    const category = await client.query<{ id: number }>(`INSERT INTO categories (name, contained_type, description) VALUES ($1, 'jeopardy', 'The stampede') RETURNING id`, [prefix]);
    const challenges = await client.query<{ id: number; flag: string }>(
      `INSERT INTO challenges (category_id, name, description, flag_type, flag_metadata, author, score, current_score, challenge_metadata, updated_at)
       SELECT $1, $2 || ' ' || g, 'A challenge of the stampede.', 'plaintext', jsonb_build_object('flag', 'flag{' || $2 || '-' || g || '}'), 'bench', 100, 100, '{}'::jsonb, now()
         FROM generate_series(1, $3) g RETURNING id, flag_metadata->>'flag' AS flag`,
      [category.rows[0]!.id, prefix, CHALLENGES],
    );
    await client.query("COMMIT");
    await client.query("ANALYZE");
    return { players: users.rows, challenges: challenges.rows };
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

async function run(copies: Server[], players: Player[], challenges: { id: number; flag: string }[], options: StampedeOptions): Promise<StampedeRun> {
  const latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  const errors = new Map<Kind, number>(KINDS.map((k) => [k, 0]));
  const throttled = new Map<Kind, number>(KINDS.map((k) => [k, 0]));
  let turn = 0;
  const next = () => copies[turn++ % copies.length]!.baseUrl;

  /** One request; true when it was answered as the contract says it may be. */
  const request = async (
    kind: Kind,
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    accepted: number[] = [200],
  ): Promise<{ status: number; body: { d?: { token?: string } }; retryAfter: number } | null> => {
    const started = performance.now();
    try {
      const res = await fetch(`${next()}/api/v2${path}`, {
        method,
        headers: { ...(token && { authorization: `Token ${token}` }), ...(body !== undefined && { "content-type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const parsed = (await res.json()) as { d?: { token?: string } };
      latencies.get(kind)!.push(performance.now() - started);
      if (res.status === 429) throttled.set(kind, throttled.get(kind)! + 1);
      else if (!accepted.includes(res.status)) errors.set(kind, errors.get(kind)! + 1);
      return { status: res.status, body: parsed, retryAfter: Number(res.headers.get("retry-after")) || 1 };
    } catch {
      errors.set(kind, errors.get(kind)! + 1);
      return null;
    }
  };

  /** A page load, as a browser asks for it (compressed; signed in with the session cookie). */
  const page = async (kind: Kind, path: string, token?: string): Promise<void> => {
    const started = performance.now();
    try {
      const res = await fetch(`${next()}${path}`, { headers: pageHeaders(token) });
      await res.arrayBuffer();
      latencies.get(kind)!.push(performance.now() - started);
      if (res.status !== 200) errors.set(kind, errors.get(kind)! + 1);
    } catch {
      errors.set(kind, errors.get(kind)! + 1);
    }
  };

  const sockets: WebSocket[] = [];
  let socketErrors = 0;
  const openSocket = (base: string, token: string) =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(`${base.replace("http", "ws")}/api/v2/ws/`);
      socket.once("open", () => {
        socket.send(JSON.stringify({ token }));
        sockets.push(socket);
        resolve();
      });
      socket.once("error", () => {
        socketErrors++;
        resolve();
      });
    });

  const start = performance.now();
  const loginWindow = options.loginSeconds * 1000;
  const mixEnd = start + loginWindow + options.mixSeconds * 1000;
  let firstLogin = Infinity;
  let lastLogin = 0;
  let loggedIn = 0;

  const play = async (player: Player, index: number) => {
    await sleep(start + (index * loginWindow) / players.length - performance.now());
    let token: string | undefined;
    // The player opens the site at its login page, signs in, and lands on the challenge list.
    await page("login page", "/login");
    firstLogin = Math.min(firstLogin, performance.now());
    while (!token && performance.now() < mixEnd) {
      const res = await request("login", "POST", "/auth/login/", { username: player.username, password: PASSWORD });
      if (res?.status === 200) token = res.body.d?.token;
      // As a client should: not before Retry-After, spread over the following second.
      else if (res?.status === 429) await sleep(res.retryAfter * 1000 + Math.random() * 1000);
      else return;
    }
    if (!token) return;
    loggedIn++;
    lastLogin = performance.now();
    await page("challenge list page", "/campaign", token);
    await openSocket(copies[index % copies.length]!.baseUrl, token);
    const solved = new Set<number>();
    while (performance.now() < mixEnd) {
      await sleep(500 + Math.random() * 1000);
      const roll = Math.random();
      const challenge = challenges[Math.floor(Math.random() * challenges.length)]!;
      if (roll < 0.4) await request("challenge listing", "GET", "/challenges/categories/", undefined, token);
      else if (roll < 0.65) await request("leaderboard", "GET", "/leaderboard/team/", undefined, token);
      else if (roll < 0.9 || solved.has(challenge.id)) {
        await request("wrong flag", "POST", "/challenges/submit_flag/", { challenge: challenge.id, flag: "flag{not-it}" }, token, [200, 403]);
      } else {
        // A team mate may have solved it first: 403 already_solved_challenge is a right answer too.
        await request("correct flag", "POST", "/challenges/submit_flag/", { challenge: challenge.id, flag: challenge.flag }, token, [200, 403]);
        solved.add(challenge.id);
      }
    }
  };

  await Promise.all(players.map((player, index) => play(player, index)));
  const seconds = (performance.now() - start) / 1000;
  for (const socket of sockets) socket.terminate();

  const kinds = KINDS.map((kind) => {
    const sorted = latencies.get(kind)!.sort((a, b) => a - b);
    return { kind, count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: errors.get(kind)!, throttled: throttled.get(kind)! };
  });
  const loginSeconds = (lastLogin - firstLogin) / 1000;
  return {
    copies: copies.length,
    loginsPerSecond: Math.round((loggedIn / Math.max(loginSeconds, 0.001)) * 10) / 10,
    loginSeconds: Math.round(loginSeconds * 10) / 10,
    requestsPerSecond: Math.round(kinds.reduce((sum, k) => sum + k.count, 0) / seconds),
    kinds,
    sockets: sockets.length,
    socketErrors,
    errors: kinds.reduce((sum, k) => sum + k.errors, 0),
    throttled: kinds.reduce((sum, k) => sum + k.throttled, 0),
  };
}

const WAVE_CLIENTS = 64;
const WAVE_SECONDS = 30;

/**
 * The login wave before the start: players signing in while the countdown runs, with nothing else
 * for the server to do. WAVE_CLIENTS players at a time send their login for WAVE_SECONDS (each
 * waits out a 429's Retry-After, as in the stampede); one copy with its default hashing pool. Run
 * once with accounts hashed at argon2 0.44's own defaults (what every password was hashed with
 * before: 64 MiB, t=3, 4 lanes) and once at OWASP's baseline (ARGON2_OPTIONS), on the same machine
 * and server, so the two rates compare the hashes alone. The server verifies each hash with the
 * parameters stored in it.
 */
async function loginWave(databaseUrl: string, redisUrl: string, prefix: string, parameters: string, hash: string): Promise<LoginWave> {
  const seeded = await seed(databaseUrl, prefix, 4000, hash);
  const copy = await startServer(databaseUrl, { REDIS_URL: redisUrl, WORKERS: "0" });
  let logins = 0;
  let throttled = 0;
  let errors = 0;
  let next = 0;
  try {
    const started = performance.now();
    const deadline = started + WAVE_SECONDS * 1000;
    const client = async () => {
      while (performance.now() < deadline && next < seeded.players.length) {
        const player = seeded.players[next++]!;
        for (;;) {
          const res = await fetch(`${copy.baseUrl}/api/v2/auth/login/`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username: player.username, password: PASSWORD }),
          }).catch(() => null);
          await res?.arrayBuffer();
          if (res?.status === 200) {
            if (performance.now() <= deadline) logins++;
          } else if (res?.status === 429 && performance.now() < deadline) {
            throttled++;
            await sleep(Number(res.headers.get("retry-after")) * 1000 || 1000);
            continue;
          } else if (res?.status !== 429) errors++;
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: WAVE_CLIENTS }, client));
    const seconds = Math.min(WAVE_SECONDS, (performance.now() - started) / 1000);
    return { parameters, logins, seconds: Math.round(seconds * 10) / 10, loginsPerSecond: Math.round((logins / seconds) * 10) / 10, throttled, errors };
  } finally {
    await copy.stop();
  }
}

/** One copy, then two, each with its own players; Redis carries events and throttles between copies. */
export async function benchStampede(databaseUrl: string, options: StampedeOptions = optionsFromEnv()): Promise<StampedeResult | string> {
  const redis = await startRedis();
  if (!redis.url) return "not measured: redis-server is not installed";
  const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
  const runs: StampedeRun[] = [];
  const waves: LoginWave[] = [];
  try {
    console.log(`  login wave: ${WAVE_CLIENTS} players at a time for ${WAVE_SECONDS} s, argon2 0.44's defaults, then OWASP's baseline...`);
    waves.push(await loginWave(databaseUrl, redis.url, "wave-old", "argon2 0.44's defaults (64 MiB, t=3, 4 lanes): before", await argon2.hash(PASSWORD, { type: argon2.argon2id })));
    waves.push(await loginWave(databaseUrl, redis.url, "wave-owasp", "OWASP's baseline (19 MiB, t=2, 1 lane): now", hash));
    // STAMPEDE_WAVE_ONLY=1: the login wave alone (for work on the login path).
    for (const count of process.env.STAMPEDE_WAVE_ONLY === "1" ? [] : [1, 2]) {
      const seeded = await seed(databaseUrl, `stampede${count}`, options.players, hash);
      const copies = await Promise.all(Array.from({ length: count }, () => startServer(databaseUrl, { REDIS_URL: redis.url, WORKERS: "0" })));
      try {
        console.log(`  ${options.players} players on ${count} server cop${count === 1 ? "y" : "ies"}...`);
        runs.push(await run(copies, seeded.players, seeded.challenges, options));
      } finally {
        await Promise.all(copies.map((copy) => copy.stop()));
      }
    }
  } finally {
    await redis.stop();
  }
  return { options, runs, waves };
}

/** The report's section: the setting, a table per run, and the scaling from one copy to two. */
export function stampedeSection(result: StampedeResult | string): string[] {
  if (typeof result === "string") return [`Event-start stampede ${result}.`, ""];
  const { options, runs, waves } = result;
  const lines = [
    `Login wave (\`bench/scenarios/stampede.ts\`): players sign in while the countdown runs and nothing else is asked of`,
    `the server; ${WAVE_CLIENTS} at a time for ${WAVE_SECONDS} s against one copy with its default hashing pool (${defaultHashConcurrency(os.availableParallelism())} hashes at a time on`,
    `${os.availableParallelism()} cores), each waiting out a 429's Retry-After. The same machine and server, with the accounts' passwords`,
    "hashed at the old parameters and then at the new ones:",
    "",
    "| password hashes | logins | logins/s | 429 | errors |",
    "|---|---:|---:|---:|---:|",
    ...waves.map((w) => `| ${w.parameters} | ${w.logins} | ${w.loginsPerSecond} | ${w.throttled} | ${w.errors} |`),
    "",
  ];
  const [before, now] = waves;
  if (before && now && before.loginsPerSecond > 0) {
    lines.push(`Logins per second, now against before: ${Math.round((now.loginsPerSecond / before.loginsPerSecond) * 10) / 10}x.`, "");
  }
  lines.push(
    `Event-start stampede (\`bench/scenarios/stampede.ts\`): ${options.players} players open the login page and log in over ${options.loginSeconds} s (argon2id, hashing pool of`,
    `${defaultHashConcurrency(os.availableParallelism())}), load the challenge list page drawn for them, then each opens a websocket and lists challenges, reads the leaderboard and submits wrong and`,
    `correct flags with about a second between requests, until ${options.mixSeconds} s after the last login; one copy, then two on the`,
    `same PostgreSQL and Redis, requests dealt out in turn. Machine: ${os.availableParallelism()} cores, shared by the load generator,`,
    "the copies and PostgreSQL. Errors exclude 429s, which only the hashing pool sends (the player tries again).",
    "",
    "| copies | request | count | p50 | p99 | errors | 429 |",
    "|---:|---|---:|---:|---:|---:|---:|",
  );
  for (const r of runs) {
    for (const k of r.kinds) lines.push(`| ${r.copies} | ${k.kind} | ${k.count} | ${k.p50} ms | ${k.p99} ms | ${k.errors} | ${k.throttled} |`);
  }
  lines.push("", "| copies | logins/s | all logins in | requests/s | websockets open | errors | 429 |", "|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of runs) lines.push(`| ${r.copies} | ${r.loginsPerSecond} | ${r.loginSeconds} s | ${r.requestsPerSecond} | ${r.sockets} (${r.socketErrors} failed) | ${r.errors} | ${r.throttled} |`);
  const [one, two] = runs;
  if (one && two) {
    const factor = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);
    lines.push("", `Scaling from one copy to two: ${factor(two.requestsPerSecond, one.requestsPerSecond)}x requests/s, ${factor(two.loginsPerSecond, one.loginsPerSecond)}x logins/s.`);
  }
  lines.push("");
  return lines;
}

/** `node --import tsx bench/scenarios/stampede.ts`: this scenario alone, on a fresh database. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { startDatabase } = await import("../harness.ts");
  const database = await startDatabase();
  try {
    const result = await benchStampede(database.url);
    console.log(stampedeSection(result).join("\n"));
  } finally {
    await database.stop();
  }
  process.exit(0);
}
