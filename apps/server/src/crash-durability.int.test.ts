import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase, type Database, databaseUrl, type Db, ensureDatabase, type EmbeddedDatabase, startEmbeddedPostgres } from "@flagship/db";
import { createUser, type TestUser } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerCopy, startServerCopy } from "./testing.ts";

/**
 * Durability: what the server acknowledged survives a crash of the server and of PostgreSQL
 * together. A PostgreSQL of this test's own at its durable defaults (fsync, synchronous_commit and
 * full_page_writes on, as a real event runs it) and a server copy as its own process take wrong
 * flags (through the group-commit writer), correct flags and hint uses from 16 players at once;
 * mid-traffic both are killed with SIGKILL, nothing stopped cleanly. PostgreSQL is then started
 * again on the same data (crash recovery) and every acknowledged write must be there.
 */
let dir: string;
let postgres: EmbeddedDatabase;
let database: Database;
let url: string;
let copy: ServerCopy | undefined;

const TEAMS = 8;
const CHALLENGES = 24;
const players: (TestUser & { teamId: number })[] = [];
const challenges: { id: number; flag: string; hintId: number }[] = [];

async function call(method: string, route: string, token: string, body?: unknown): Promise<{ status: number; m: string; s: boolean } | null> {
  try {
    const res = await fetch(`${copy!.url}/api/v2${route}`, {
      method,
      headers: { authorization: `Token ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json()) as { s: boolean; m: string };
    return { status: res.status, m: json.m, s: json.s };
  } catch {
    // The server died under the request: not acknowledged.
    return null;
  }
}

/** The PostgreSQL server process and every process it started (its backends and helpers). */
async function postgresProcesses(db: Db): Promise<number[]> {
  const [row] = await db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const pid = row!.pid;
  const parentOf = (p: number) => Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1]);
  const postmaster = parentOf(pid);
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((p) => {
      try {
        return parentOf(p) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    });
  return [postmaster, ...children];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flagship-crash-"));
  postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg") });
  await ensureDatabase(postgres.baseUrl, "flagship");
  url = databaseUrl(postgres.baseUrl, "flagship");
  database = await connectDatabase({ databaseUrl: url, dataDir: dir });
  const { db } = database;
  const world = { services: { db } };
  for (let t = 0; t < TEAMS; t++) {
    const owner = await createUser(world);
    const mate = await createUser(world);
    const team = await db.team.create({ data: { name: `Crashers ${t}`, password: "team-secret-1", ownerId: owner.id }, select: { id: true } });
    await db.user.updateMany({ where: { id: { in: [owner.id, mate.id] } }, data: { teamId: team.id } });
    players.push({ ...owner, teamId: team.id }, { ...mate, teamId: team.id });
  }
  const staff = await createUser(world, { isStaff: true });
  copy = await startServerCopy({ DATABASE_URL: url, DATA_DIR: path.join(dir, "data") });
  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${copy!.url}/api/v2${route}`, { method: "POST", headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const json = (await res.json()) as { s: boolean; m: string; d: any };
    if (!json.s) throw new Error(`${route}: ${json.m}`);
    return json.d;
  };
  const category = await post("/challenges/categories/", { name: "Durability", contained_type: "jeopardy", description: "Kept." });
  for (let c = 0; c < CHALLENGES; c++) {
    const flag = `flag{kept-${c}}`;
    const created = await post("/challenges/", { category: category.id, name: `Kept ${c}`, score: 100, flag_metadata: { flag }, hints: [{ name: "A hint", penalty: 5, text: "look again" }] });
    challenges.push({ id: created.id, flag, hintId: created.hints[0].id });
  }
}, 180_000);

afterAll(async () => {
  await copy?.stop();
  await database?.db.$disconnect().catch(() => {});
  await postgres?.stop().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

describe("a crash of the server and of PostgreSQL together", () => {
  it("loses no acknowledged wrong flag, solve or hint use", async () => {
    const wrong: string[] = [];
    const solved: { teamId: number; challengeId: number }[] = [];
    const hints: { teamId: number; hintId: number }[] = [];
    let stop = false;
    const processes = await postgresProcesses(database.db);
    // Both killed the moment an answer arrives once enough of each kind are acknowledged, in the
    // same turn that records it: a write acknowledged before its commit would be caught unwritten.
    const crashIfEnough = () => {
      if (stop || wrong.length < 300 || solved.length < 8 || hints.length < 8) return;
      stop = true;
      copy!.child.kill("SIGKILL");
      for (const pid of processes) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    };

    // Each player in a loop: mostly wrong flags (each with a flag text of its own), now and then
    // a hint, and a correct flag every few requests, each team working through the challenges.
    const next = new Map<number, number>();
    const play = async (player: (typeof players)[number], index: number) => {
      for (let n = 0; !stop && n < 5000; n++) {
        if (n % 7 === 3) {
          const c = (next.get(player.teamId) ?? 0) + (index % 2);
          next.set(player.teamId, c + 1);
          const challenge = challenges[c % CHALLENGES]!;
          const res = await call("POST", "/challenges/submit_flag/", player.token, { challenge: challenge.id, flag: challenge.flag });
          if (res === null) return;
          if (res.m === "correct_flag") solved.push({ teamId: player.teamId, challengeId: challenge.id });
        } else if (n % 11 === 5) {
          const challenge = challenges[(index * 5 + n) % CHALLENGES]!;
          const res = await call("POST", "/hints/use/", player.token, { id: challenge.hintId });
          if (res === null) return;
          if (res.s) hints.push({ teamId: player.teamId, hintId: challenge.hintId });
        } else {
          const flag = `flag{wrong-${player.id}-${n}}`;
          const res = await call("POST", "/challenges/submit_flag/", player.token, { challenge: challenges[(index + n) % CHALLENGES]!.id, flag });
          if (res === null) return;
          if (res.m === "incorrect_flag") wrong.push(flag);
        }
        crashIfEnough();
      }
    };
    await Promise.race([Promise.all(players.map((player, i) => play(player, i))), new Promise((r) => setTimeout(r, 60_000))]);
    expect({ crashed: stop, wrong: wrong.length >= 300, solved: solved.length >= 8, hints: hints.length >= 8 }).toEqual({ crashed: true, wrong: true, solved: true, hints: true });
    copy = undefined; // killed: nothing left to stop
    // Gone, or a zombie nobody has reaped yet (its parent, the server process, is dead too).
    const alive = (pid: number) => {
      try {
        return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
      } catch {
        return false;
      }
    };
    while (processes.some(alive)) await new Promise((r) => setTimeout(r, 50));
    // Not stop(): the killed cluster has no exit left to wait for.
    void database.db.$disconnect().catch(() => {});

    // PostgreSQL again on the same data: it recovers from its write-ahead log.
    postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg") });
    database = await connectDatabase({ databaseUrl: url, dataDir: dir });
    const { db } = database;
    const keptWrong = new Set((await db.incorrectAttempt.findMany({ where: { flag: { in: wrong } }, select: { flag: true } })).map((a) => a.flag));
    expect(wrong.filter((flag) => !keptWrong.has(flag))).toEqual([]);
    const keptSolves = new Set((await db.solve.findMany({ select: { teamId: true, challengeId: true } })).map((s) => `${s.teamId}/${s.challengeId}`));
    expect(solved.filter((s) => !keptSolves.has(`${s.teamId}/${s.challengeId}`))).toEqual([]);
    const keptHints = new Set((await db.hintUse.findMany({ select: { teamId: true, hintId: true } })).map((h) => `${h.teamId}/${h.hintId}`));
    expect(hints.filter((h) => !keptHints.has(`${h.teamId}/${h.hintId}`))).toEqual([]);
    // Every kept solve still has its score record: the solve and its points committed together.
    const unscored = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM solves s WHERE NOT EXISTS (SELECT 1 FROM score_records r WHERE r.solve_id = s.id)`;
    expect(unscored[0]!.n).toBe(0);
  }, 180_000);
});
