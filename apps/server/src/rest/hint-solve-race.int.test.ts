import { createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type ServerCopy, startServerCopy } from "../testing.ts";

/**
 * One member uses a hint while a teammate submits the right flag at the same moment, on the other
 * server copy, round after round. A hint use committed before the solve must be charged to it.
 *
 * Which of the two committed first is recorded by the database itself: a deferred trigger, made
 * for this test's own database, runs as each solve commits and notes how many of the team's hint
 * uses for the challenge were committed by then. A use it saw is certainly committed before the
 * solve; the solve must then carry its penalty.
 */

const ROUNDS = 200;
const ROUNDS_IN_FLIGHT = 4;
const PENALTY = 30;

let world: TestWorld;
let copies: ServerCopy[] = [];
const members: TestUser[] = [];
const rounds: { challenge: number; hint: number }[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  const { db } = world.services;
  await db.$executeRawUnsafe(`CREATE TABLE race_seen (solve_id int PRIMARY KEY, hints_committed int NOT NULL)`);
  await db.$executeRawUnsafe(`
    CREATE FUNCTION note_committed_hints() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO race_seen SELECT NEW.id, count(*) FROM hint_uses WHERE team_id = NEW.team_id AND challenge_id = NEW.challenge_id;
      RETURN NULL;
    END $$`);
  await db.$executeRawUnsafe(`
    CREATE CONSTRAINT TRIGGER note_committed_hints AFTER INSERT ON solves
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_committed_hints()`);
  const teamId = (await db.team.create({ data: { name: uniqueName("hinters"), password: "team-secret-1" }, select: { id: true } })).id;
  for (let i = 0; i < 2; i++) members.push(await createUser(world, { teamId }));
  const categoryId = (await db.category.create({ data: { name: uniqueName("hint races") }, select: { id: true } })).id;
  // Every challenge exists before the copies start, so neither waits for a catalog reload.
  for (let i = 0; i < ROUNDS; i++) {
    const challenge = await db.challenge.create({
      data: {
        categoryId,
        name: uniqueName("hint race"),
        flagType: "plaintext",
        flagMetadata: { flag: "flag{right}" },
        score: 100,
        currentScore: 100,
        hints: { create: { name: "nudge", penalty: PENALTY, text: "look closer" } },
      },
      select: { id: true, hints: { select: { id: true } } },
    });
    rounds.push({ challenge: challenge.id, hint: challenge.hints[0]!.id });
  }
  const redisUrl = testRedisUrl(inject("redisUrl"));
  copies = await Promise.all([0, 1].map(() => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: redisUrl })));
}, 180_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

async function post(copy: ServerCopy, member: TestUser, path: string, body: unknown): Promise<{ status: number; m: string }> {
  const res = await fetch(`${copy.url}/api/v2${path}`, {
    method: "POST",
    headers: { authorization: `Token ${member.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, m: ((await res.json()) as { m: string }).m };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a hint used at the same moment as the solve, across two server copies", () => {
  it(`charges every hint use committed before the solve, ${ROUNDS} rounds`, async () => {
    const answers: { status: number; m: string }[] = [];
    const play = async (round: number) => {
      const { challenge, hint } = rounds[round]!;
      const [hinter, solver] = round % 2 === 0 ? [members[0]!, members[1]!] : [members[1]!, members[0]!];
      // A small varying head start for one side or the other spreads the moments the two meet.
      const skew = (round % 7) - 3;
      const results = await Promise.all([
        pause(Math.max(skew, 0)).then(() => post(copies[round % 2]!, hinter, "/hints/use/", { id: hint })),
        pause(Math.max(-skew, 0)).then(() => post(copies[(round + 1) % 2]!, solver, "/challenges/submit_flag/", { challenge, flag: "flag{right}" })),
      ]);
      answers.push(...results);
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: ROUNDS_IN_FLIGHT }, async () => {
        for (let round = next++; round < ROUNDS; round = next++) await play(round);
      }),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const { db } = world.services;
    const ids = rounds.map((r) => r.challenge);
    const [solves, uses, seen] = await Promise.all([
      db.solve.findMany({ where: { challengeId: { in: ids } }, select: { id: true, challengeId: true, penalty: true } }),
      db.hintUse.findMany({ where: { challengeId: { in: ids } }, select: { challengeId: true } }),
      db.$queryRaw<{ solve_id: number; hints_committed: number }[]>`SELECT solve_id, hints_committed FROM race_seen`,
    ]);
    expect(solves).toHaveLength(ROUNDS);
    expect(uses).toHaveLength(ROUNDS);
    const committed = new Map(seen.map((s) => [s.solve_id, s.hints_committed]));
    const uncharged = solves.filter((s) => (committed.get(s.id) ?? 0) > 0 && s.penalty !== PENALTY);
    expect(uncharged).toEqual([]);
    // A solve never carries a penalty for a hint it could not have seen.
    expect(solves.filter((s) => s.penalty !== 0 && s.penalty !== PENALTY)).toEqual([]);
    // Both orders occurred, so the rounds did race.
    expect(solves.some((s) => s.penalty === PENALTY)).toBe(true);
    expect(solves.some((s) => s.penalty === 0)).toBe(true);
    // The team's total is what its solves are worth.
    const team = await db.team.findFirstOrThrow({ where: { members: { some: { id: members[0]!.id } } }, select: { points: true } });
    expect(team.points).toBe(solves.reduce((sum, s) => sum + 100 - s.penalty, 0));
  }, 600_000);
});
