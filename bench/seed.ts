// The benchmark's event, made the way a real one is: every account, team, challenge, hint use and
// solve goes through the domain functions the server calls (register, createTeam, joinTeam,
// createChallenge, useHint, submitFlag), so score records, first bloods, decay re-scoring and
// totals are what a live event has. Only the password hash is shared: see BENCH_PASSWORD below.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import argon2 from "argon2";
import {
  ARGON2_OPTIONS,
  ConfigStore,
  createCategory,
  createChallenge,
  createInnerContext,
  createMailer,
  createTeam,
  createThrottle,
  InProcessPublisher,
  issueToken,
  joinTeam,
  register,
  resolveActor,
  type Services,
  type StaffContext,
  type AuthedContext,
  submitFlag,
  useHint,
} from "@flagship/api";
import { createDb, type Db } from "@flagship/db";
import { AppError } from "@flagship/shared";

export interface SeedSize {
  teams: number;
  /** Members per team (the first creates the team, the others join it). */
  members: number;
  categories: number;
  challengesPerCategory: number;
  /** Correct solves per team, made through submitFlag. */
  solvesPerTeam: number;
}

export const SEED: SeedSize = { teams: 1000, members: 2, categories: 5, challengesPerCategory: 20, solvesPerTeam: 5 };
export const SEED_10X: SeedSize = { ...SEED, teams: 10_000, solvesPerTeam: 5 };

/**
 * Every account gets this password. argon2id takes about 0.1-0.6 s of a core per hash on the
 * benchmark machine, so the seed hashes it once and hands that real hash to register() through
 * the `hashPassword` service (the only difference from the server's path).
 */
export const BENCH_PASSWORD = "Seed-password-of-the-bench-4e7a!";

export interface Player {
  token: string;
  userId: number;
  teamId: number;
}

export interface SeedChallenge {
  id: number;
  flag: string;
  hintId: number;
}

export interface Seeded {
  /** One per player; the first `teams` tokens belong to different teams (each team's creator). */
  tokens: string[];
  /** Per token, a challenge that player's team had not solved after the seed, and never will (`takeSolve` leaves it out). */
  openChallenge: number[];
  players: Player[];
  challenges: SeedChallenge[];
  staffToken: string;
  /** Per team, the challenges it has solved (kept up to date by `takeSolve`). */
  solved: Map<number, Set<number>>;
  /** The next (player, challenge) whose correct flag has not been sent yet, marked as taken. */
  takeSolve(): { token: string; challenge: number; flag: string; teamId: number } | null;
  counts: { users: number; teams: number; challenges: number; solves: number; hintUses: number; seconds: number };
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

const silentLog = { info() {}, warn() {}, error() {} };

/** The services a server process builds, on the given database, with throttles off. */
async function seedServices(db: Db): Promise<{ services: Services; close(): Promise<void> }> {
  const publisher = new InProcessPublisher();
  const hash = await argon2.hash(BENCH_PASSWORD, ARGON2_OPTIONS);
  const services: Services = {
    db,
    events: publisher,
    config: new ConfigStore(db),
    log: silentLog,
    version: "bench",
    now: () => Math.floor(Date.now() / 1000),
    mail: createMailer({ db, log: silentLog, from: "Flagship <noreply@flagship.test>", publicUrl: "http://127.0.0.1" }),
    throttle: createThrottle({ enabled: false }),
    hashPassword: async (password) => {
      if (password !== BENCH_PASSWORD) throw new Error("The seed registers every account with BENCH_PASSWORD");
      return hash;
    },
  };
  return {
    services,
    async close() {
      await publisher.close();
      await services.mail.close();
      await services.throttle.close();
    },
  };
}

/** A signed-in context for a token, resolved the way the server resolves a request's token. */
async function as<T extends AuthedContext>(services: Services, token: string): Promise<T> {
  const actor = await resolveActor(services, token);
  if (!actor) throw new Error("A seeded token does not resolve");
  return createInnerContext(services, actor) as T;
}

async function registerAccount(services: Services, username: string): Promise<{ id: number; token: string }> {
  const { id } = await register(createInnerContext(services, null, "127.0.0.1"), {
    username,
    email: `${username}@bench.example`,
    password: BENCH_PASSWORD,
    accept: true,
  });
  return { id, token: await issueToken(services.db, id) };
}

// BENCH_SEED_CONCURRENCY lowers it on a machine too busy for sixteen registrations at once (their transactions time out).
const CONCURRENCY = Number(process.env.BENCH_SEED_CONCURRENCY ?? 16);

/** Prisma's code for an interactive transaction that outlived its timeout (rolled back, not committed). */
const EXPIRED_TRANSACTION = "P2028";

/**
 * A seeded solve through submitFlag. On a machine too busy to finish the transaction within
 * Prisma's 5 seconds, it was rolled back: send the flag again (a second answer of
 * already_solved_challenge means the first did commit after all).
 */
async function solveWithRetry(ctx: AuthedContext, challenge: SeedChallenge): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await submitFlag(ctx, { challenge: challenge.id, flag: challenge.flag });
      if (result.m !== "correct_flag") throw new Error(`A seeded solve was refused: ${result.m}`);
      return;
    } catch (error) {
      if (attempt > 1 && error instanceof AppError && error.code === "already_solved_challenge") return;
      if (attempt >= 5 || (error as { code?: unknown }).code !== EXPIRED_TRANSACTION) throw error;
    }
  }
}

/** Seeds an empty, migrated database with a live event of the given size. */
export async function seedEvent(url: string, size: SeedSize, log: (line: string) => void = console.log): Promise<Seeded> {
  const started = performance.now();
  const db = createDb(url, { poolSize: CONCURRENCY + 4 });
  const { services, close } = await seedServices(db);
  try {
    // The first account is staff; it authors the challenges.
    const staff = await registerAccount(services, "bench-admin");
    const staffCtx = await as<StaffContext>(services, staff.token);

    const challenges: SeedChallenge[] = [];
    for (let c = 1; c <= size.categories; c++) {
      const category = await createCategory(staffCtx, {
        name: `Category ${c}`,
        contained_type: c % 2 === 0 ? "campaign" : "jeopardy",
        description: `Benchmark category ${c}`,
        display_order: c,
      });
      for (let n = 1; n <= size.challengesPerCategory; n++) {
        const flag = `flag{bench-${c}-${n}}`;
        // One challenge in ten decays, so solves of it re-score its earlier solvers.
        const decay = n % 10 === 0;
        const view = await createChallenge(staffCtx, {
          category: category.id,
          name: `Challenge ${c}.${n}`,
          description: `A benchmark challenge with a **markdown** description, long enough to look like a real one. ${"Lorem ipsum dolor sit amet. ".repeat(2)}`,
          author: "bench",
          score: 50 * n,
          points_type: decay ? "decay" : "basic",
          flag_type: "plaintext",
          flag_metadata: decay ? { flag, decay_constant: 0.9, min_points: 10 } : { flag },
          tags: [["web", "crypto", "pwn"][n % 3]!],
          hints: [{ name: "Hint", penalty: 10, text: "Look closer." }],
        });
        const hint = await db.hint.findFirstOrThrow({ where: { challengeId: view.id }, select: { id: true } });
        challenges.push({ id: view.id, flag, hintId: hint.id });
      }
    }
    log(`  ${challenges.length} challenges in ${size.categories} categories`);

    // Accounts: member m of team t. Creators first, so tokens[0..teams) are in different teams.
    const slots = Array.from({ length: size.teams * size.members }, (_, i) => ({ team: i % size.teams, member: Math.floor(i / size.teams) }));
    const accounts: { id: number; token: string }[] = new Array(slots.length);
    await pool(slots, CONCURRENCY, async (slot, i) => {
      accounts[i] = await registerAccount(services, `bench-${slot.team}-${slot.member}`);
    });
    log(`  ${accounts.length} accounts registered`);

    const teamIds: number[] = new Array(size.teams);
    await pool(teamIds, CONCURRENCY, async (_, t) => {
      const view = await createTeam(await as(services, accounts[t]!.token), { name: `bench-team-${t}`, password: `bench-secret-${t}` });
      teamIds[t] = view.id;
    });
    await pool(slots.slice(size.teams), CONCURRENCY, async (slot, i) => {
      await joinTeam(await as(services, accounts[size.teams + i]!.token), { name: `bench-team-${slot.team}`, password: `bench-secret-${slot.team}` });
    });
    log(`  ${size.teams} teams of ${size.members}`);

    // Team t solves challenges spread over the board, its members taking turns;
    // one in four teams first reveals the hint of its first challenge, so penalties are charged.
    const solved = new Map<number, Set<number>>(teamIds.map((id) => [id, new Set<number>()]));
    const plan: { slot: number; challenge: SeedChallenge; hint: boolean }[] = [];
    for (let t = 0; t < size.teams; t++) {
      for (let j = 0; j < size.solvesPerTeam; j++) {
        const index = (t * 7 + j * 13) % challenges.length;
        const challenge = challenges[index]!;
        if (solved.get(teamIds[t]!)!.has(challenge.id)) continue;
        solved.get(teamIds[t]!)!.add(challenge.id);
        plan.push({ slot: t + (j % size.members) * size.teams, challenge, hint: j === 0 && t % 4 === 0 });
      }
    }
    let hintUses = 0;
    await pool(plan, CONCURRENCY, async (step) => {
      const ctx = await as(services, accounts[step.slot]!.token);
      if (step.hint) {
        await useHint(ctx, { id: step.challenge.hintId });
        hintUses += 1;
      }
      await solveWithRetry(ctx, step.challenge);
    });
    log(`  ${plan.length} solves, ${hintUses} hint uses`);
    await db.$executeRawUnsafe("ANALYZE");

    const players: Player[] = slots.map((slot, i) => ({ token: accounts[i]!.token, userId: accounts[i]!.id, teamId: teamIds[slot.team]! }));
    const counts = {
      users: accounts.length + 1,
      teams: size.teams,
      challenges: challenges.length,
      solves: plan.length,
      hintUses,
      seconds: Math.round((performance.now() - started) / 1000),
    };
    return seededEvent({ players, challenges, staffToken: staff.token, counts }, solved);
  } finally {
    await close();
    await db.$disconnect();
  }
}

/** What a seeded event is made of, as kept in a reused database's folder (BENCH_SEED_DIR). */
export interface SeedRecord {
  players: Player[];
  challenges: SeedChallenge[];
  staffToken: string;
  counts: Seeded["counts"];
}

/** The event's record, kept beside a reused database so a later run needs no seed. */
export function seedRecord(seeded: Seeded): SeedRecord {
  return { players: seeded.players, challenges: seeded.challenges, staffToken: seeded.staffToken, counts: seeded.counts };
}

/** A seeded event from its record and the solves its database holds now (each team's solved challenges). */
export function seededEvent(record: SeedRecord, solved: Map<number, Set<number>>): Seeded {
  const { players, challenges } = record;
  for (const p of players) if (!solved.has(p.teamId)) solved.set(p.teamId, new Set());
  // Each team keeps one challenge no correct flag is ever sent for, the target of its wrong flags:
  // a wrong flag replayed after wrk wraps around its prepared list then never meets a challenge
  // the team has solved meanwhile (answered 403 already_solved_challenge, counted as an error).
  const reserved = new Map<number, number>();
  for (const p of players) if (!reserved.has(p.teamId)) reserved.set(p.teamId, challenges.find((c) => !solved.get(p.teamId)!.has(c.id))!.id);
  const openChallenge = players.map((p) => reserved.get(p.teamId)!);
  // Solves handed out later walk players and challenges in an order that spreads them out.
  let cursor = 0;
  const total = players.length * challenges.length;
  const takeSolve: Seeded["takeSolve"] = () => {
    while (cursor < total) {
      const n = cursor++;
      const player = players[n % players.length]!;
      const challenge = challenges[(Math.floor(n / players.length) * 37 + n) % challenges.length]!;
      const done = solved.get(player.teamId)!;
      if (done.has(challenge.id) || reserved.get(player.teamId) === challenge.id) continue;
      done.add(challenge.id);
      return { token: player.token, challenge: challenge.id, flag: challenge.flag, teamId: player.teamId };
    }
    return null;
  };
  return { tokens: players.map((p) => p.token), openChallenge, players, challenges, staffToken: record.staffToken, solved, takeSolve, counts: record.counts };
}

/** The solves a database holds now, per team: for a reused seed, whose later runs solved more. */
export async function solvedNow(url: string): Promise<Map<number, Set<number>>> {
  const db = createDb(url, { poolSize: 1 });
  try {
    const solved = new Map<number, Set<number>>();
    for (const s of await db.solve.findMany({ select: { teamId: true, challengeId: true } })) {
      (solved.get(s.teamId) ?? solved.set(s.teamId, new Set()).get(s.teamId)!).add(s.challengeId);
    }
    return solved;
  } finally {
    await db.$disconnect();
  }
}

/**
 * The seeded event: seeded now, or, with `dir` (BENCH_SEED_DIR), the one seeded there before,
 * whose database the caller opened in that folder (seeded once, with the solves of earlier runs
 * on top).
 */
export async function seedOrReuse(url: string, size: SeedSize, dir: string | undefined, log: (line: string) => void = console.log): Promise<Seeded> {
  const record = dir && path.join(dir, "seed.json");
  if (record && existsSync(record)) {
    log(`Reusing the event seeded in ${dir}`);
    return seededEvent(JSON.parse(await readFile(record, "utf8")) as SeedRecord, await solvedNow(url));
  }
  log("Seeding through the domain functions...");
  const game = await seedEvent(url, size, log);
  if (record) await writeFile(record, JSON.stringify(seedRecord(game)));
  return game;
}
