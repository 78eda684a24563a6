import { createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type ServerCopy, startServerCopy } from "../testing.ts";

/**
 * One member submits the right flag while seven teammates submit wrong ones at the same moment,
 * round after round, through two server copies sharing one database. Every submission must get a
 * real answer (never a 500), exactly one solve must be recorded, and every attempt counted.
 */

const ROUNDS = 200;
const MEMBERS = 8;

let world: TestWorld;
let copies: ServerCopy[] = [];
const members: TestUser[] = [];
let teamId: number;
let categoryId: number;

beforeAll(async () => {
  world = await createTestWorld();
  const redisUrl = testRedisUrl(inject("redisUrl"));
  const { db } = world.services;
  teamId = (await db.team.create({ data: { name: uniqueName("racers"), password: "team-secret-1" }, select: { id: true } })).id;
  for (let i = 0; i < MEMBERS; i++) members.push(await createUser(world, { teamId }));
  categoryId = (await db.category.create({ data: { name: uniqueName("races") }, select: { id: true } })).id;
  copies = await Promise.all([0, 1].map(() => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: redisUrl })));
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

async function submit(copy: ServerCopy, member: TestUser, challenge: number, flag: string): Promise<{ status: number; m: string }> {
  const res = await fetch(`${copy.url}/api/v2/challenges/submit_flag/`, {
    method: "POST",
    headers: { authorization: `Token ${member.token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge, flag }),
  });
  const body = (await res.json()) as { m: string };
  return { status: res.status, m: body.m };
}

async function createChallenges(count: number, attemptLimit: number | null, pointsType: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const challenge = await world.services.db.challenge.create({
      data: {
        categoryId,
        name: uniqueName("race"),
        flagType: "plaintext",
        flagMetadata: { flag: "flag{right}", ...(pointsType === "decay" && { decay_constant: 0.5, min_points: 10 }) },
        score: 100,
        currentScore: 100,
        pointsType,
        attemptLimit,
      },
      select: { id: true },
    });
    ids.push(challenge.id);
  }
  return ids;
}

/**
 * Plays the rounds, a few at a time (each round has its own challenge, so rounds in flight
 * together also contend for the team's and members' rows); the correct submitter changes every
 * round and so does its copy.
 */
const ROUNDS_IN_FLIGHT = 4;
async function playRounds(challenges: number[]) {
  type Answer = { status: number; m: string };
  const answers: { challenge: number; correctAnswer: Answer; all: Answer[] }[] = [];
  const play = async (round: number, challenge: number) => {
    const correctIndex = round % MEMBERS;
    const all = await Promise.all(
      members.map((member, i) => submit(copies[(i + round) % 2]!, member, challenge, i === correctIndex ? "flag{right}" : `flag{wrong-${i}}`)),
    );
    answers.push({ challenge, correctAnswer: all[correctIndex]!, all });
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: ROUNDS_IN_FLIGHT }, async () => {
      for (let round = next++; round < challenges.length; round = next++) await play(round, challenges[round]!);
    }),
  );
  return answers;
}

async function countsFor(challenges: number[]) {
  const { db } = world.services;
  const [solves, incorrect, counters] = await Promise.all([
    db.solve.groupBy({ by: ["challengeId"], where: { challengeId: { in: challenges } }, _count: { _all: true } }),
    db.$queryRaw<{ challenge_id: number; n: number }[]>`
      SELECT challenge_id, COUNT(*)::int AS n FROM incorrect_attempts WHERE challenge_id = ANY(${challenges}::int[]) GROUP BY challenge_id`,
    db.$queryRaw<{ challenge_id: number; attempts: number }[]>`
      SELECT challenge_id, attempts FROM attempt_counters WHERE team_id = ${teamId} AND challenge_id = ANY(${challenges}::int[])`,
  ]);
  return {
    solves: new Map(solves.map((s) => [s.challengeId, s._count._all])),
    incorrect: new Map(incorrect.map((r) => [r.challenge_id, r.n])),
    counters: new Map(counters.map((r) => [r.challenge_id, r.attempts])),
  };
}

describe("1 correct + 7 wrong submissions at once, across two server copies", () => {
  it(`never answer 500 and record exactly one solve, ${ROUNDS} rounds without an attempt limit`, async () => {
    // Half standard, half decay: decay solves also re-score earlier solvers.
    const challenges = [...(await createChallenges(ROUNDS / 2, null, "basic")), ...(await createChallenges(ROUNDS / 2, null, "decay"))];
    const answers = await playRounds(challenges);
    const serverErrors = answers.flatMap((a) => a.all).filter((a) => a.status >= 500);
    expect(serverErrors).toEqual([]);
    expect(answers.map((a) => a.correctAnswer.m).filter((m) => m !== "correct_flag")).toEqual([]);
    // A wrong flag is refused, or (once the right one committed) the challenge is already solved.
    const others = answers.flatMap((a) => a.all.filter((x) => x !== a.correctAnswer));
    expect(others.filter((x) => x.m !== "incorrect_flag" && x.m !== "already_solved_challenge")).toEqual([]);
    const counts = await countsFor(challenges);
    for (const answer of answers) {
      const { challenge } = answer;
      const toldIncorrect = answer.all.filter((a) => a.m === "incorrect_flag").length;
      expect({ challenge, solves: counts.solves.get(challenge) ?? 0, incorrect: counts.incorrect.get(challenge) ?? 0 }).toEqual({ challenge, solves: 1, incorrect: toldIncorrect });
    }
    const team = await world.services.db.team.findUniqueOrThrow({ where: { id: teamId }, select: { points: true } });
    const solved = await world.services.db.solve.aggregate({ where: { teamId }, _sum: { points: true } });
    expect(team.points).toBe(solved._sum.points);
  }, 600_000);

  it(`never answer 500 and count every attempt exactly, ${ROUNDS} rounds with an attempt limit`, async () => {
    // A limit the round fits in (all eight attempts count, one solves) and a limit it overruns.
    const roomy = await createChallenges(ROUNDS / 2, MEMBERS, "basic");
    const tight = await createChallenges(ROUNDS / 2, 3, "basic");
    const answers = await playRounds([...roomy, ...tight]);
    expect(answers.flatMap((a) => a.all).filter((a) => a.status >= 500)).toEqual([]);
    const counts = await countsFor([...roomy, ...tight]);
    for (const answer of answers) {
      const { challenge } = answer;
      const solves = counts.solves.get(challenge) ?? 0;
      const incorrect = counts.incorrect.get(challenge) ?? 0;
      const counter = counts.counters.get(challenge) ?? 0;
      const told = {
        correct: answer.all.filter((a) => a.m === "correct_flag").length,
        incorrect: answer.all.filter((a) => a.m === "incorrect_flag").length,
        limited: answer.all.filter((a) => a.m === "attempt_limit_reached").length,
        solved: answer.all.filter((a) => a.m === "already_solved_challenge").length,
      };
      const limit = roomy.includes(challenge) ? MEMBERS : 3;
      // Every answer is one of the four; every attempt the counter took is recorded as a solve or
      // an incorrect attempt, and answered as such; the limit is reached only when it is used up.
      expect(told.correct + told.incorrect + told.limited + told.solved).toBe(MEMBERS);
      expect({ challenge, counter, solves, incorrect }).toEqual({ challenge, counter: told.correct + told.incorrect, solves: told.correct, incorrect: told.incorrect });
      expect(counter).toBeLessThanOrEqual(limit);
      if (told.limited > 0) expect(counter).toBe(limit);
      if (limit === MEMBERS) expect({ challenge, solves }).toEqual({ challenge, solves: 1 });
    }
  }, 600_000);
});
