import { createTestDatabase, type TestDatabase, uniqueName } from "@flagship/db/testing";
import type { Actor, Context, Services } from "../context.ts";
import { createInnerContext } from "../context.ts";
import { ConfigStore } from "../config/config-store.ts";
import { InProcessPublisher, type AppEvent } from "../events/publisher.ts";
import { createCaller } from "../root.ts";
import { issueToken } from "../auth/tokens.ts";
import { createMailer } from "../mail/mailer.ts";
import { createThrottle } from "../throttle/throttle.ts";
import { ARGON2_OPTIONS } from "../auth/passwords.ts";

export { uniqueName };

export interface TestWorld {
  database: TestDatabase;
  services: Services;
  /** Every event published, in order. */
  events: AppEvent[];
  /** Moves the clock used by the domain (seconds since the epoch). */
  setNow(seconds: number | null): void;
  close(): Promise<void>;
}

const silentLog = { info() {}, warn() {}, error() {} };

export interface TestWorldOptions {
  /** A real SMTP server to send through; without it mail goes to the outbox table. */
  smtpUrl?: string;
  /** Rate limits: off unless a test turns them on (with its own rates, and Redis if given). */
  throttle?: { enabled: boolean; rates?: string; redisUrl?: string };
  publicUrl?: string;
}

/** A fresh database plus the services a server would build, for domain and tRPC tests. */
export async function createTestWorld(options: TestWorldOptions = {}): Promise<TestWorld> {
  const database = await createTestDatabase();
  const events: AppEvent[] = [];
  const publisher = new InProcessPublisher();
  publisher.subscribe((event) => events.push(event));
  let fixedNow: number | null = null;
  const services: Services = {
    db: database.db,
    events: publisher,
    config: new ConfigStore(database.db),
    log: silentLog,
    version: "test",
    now: () => fixedNow ?? Math.floor(Date.now() / 1000),
    mail: createMailer({
      db: database.db,
      log: silentLog,
      smtpUrl: options.smtpUrl,
      from: "Flagship <noreply@flagship.test>",
      publicUrl: options.publicUrl ?? "http://flagship.test",
    }),
    throttle: createThrottle({ enabled: false, ...options.throttle }),
  };
  return {
    database,
    services,
    events,
    setNow(seconds) {
      fixedNow = seconds;
    },
    async close() {
      await publisher.close();
      await services.mail.close();
      await services.throttle.close();
      await database.close();
    },
  };
}

// A real argon2id hash of TEST_PASSWORD, made once, so factories stay fast.
export const TEST_PASSWORD = "correct horse battery staple 42";
let testHash: Promise<string> | undefined;
async function testPasswordHash(): Promise<string> {
  const argon2 = await import("argon2");
  // The server's own parameters, so a test login does not also upgrade the hash.
  testHash ??= argon2.hash(TEST_PASSWORD, ARGON2_OPTIONS);
  return testHash;
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  token: string;
  actor: Actor;
}

/** Creates a verified user with a live API token (in a test world, or any database given as `{ services: { db } }`). */
export async function createUser(
  world: { services: Pick<Services, "db"> },
  options: { isStaff?: boolean; username?: string; teamId?: number | null; isVisible?: boolean } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName("user");
  const user = await world.services.db.user.create({
    data: {
      username,
      email: `${username}@example.test`,
      passwordHash: await testPasswordHash(),
      isStaff: options.isStaff ?? false,
      emailVerified: true,
      isVisible: options.isVisible ?? true,
      teamId: options.teamId ?? null,
    },
    select: { id: true, username: true, email: true, isStaff: true, teamId: true },
  });
  const token = await issueToken(world.services.db, user.id);
  const tokenRow = await world.services.db.authToken.findFirstOrThrow({ where: { userId: user.id }, select: { id: true } });
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    token,
    actor: {
      id: user.id,
      username: user.username,
      isStaff: user.isStaff,
      teamId: user.teamId,
      tokenId: tokenRow.id,
      impersonatorId: null,
      has2fa: false,
    },
  };
}

export function contextFor(world: TestWorld, user: Pick<TestUser, "actor"> | null): Context {
  return createInnerContext(world.services, user?.actor ?? null, "127.0.0.1");
}

/** A tRPC caller acting as `user` (or anonymous), without HTTP. */
export function callerFor(world: TestWorld, user: Pick<TestUser, "actor"> | null) {
  return createCaller(contextFor(world, user));
}
export { recordSolve, seedChallenges } from "../leaderboard/test-factories.ts";
export { createCategory, createChallenge, createTeamWith, type TestTeam } from "../challenges/fixtures.ts";
export { heldHasher, type HeldHasher } from "./held-hasher.ts";
export { labelSets, sample, scrape } from "./metrics.ts";
