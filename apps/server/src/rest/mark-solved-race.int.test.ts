import { createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type ServerCopy, startServerCopy } from "../testing.ts";

/**
 * Staff mark a challenge solved for a team on one server copy while a member sends the right flag
 * on the other, at the same moment, round after round. Each round must make exactly one solve (the
 * challenge counted once, the team's points raised once), and both calls get a real answer: one
 * success and one already_solved_challenge, never a 500.
 */

const ROUNDS = 40;
const ROUNDS_IN_FLIGHT = 4;

let world: TestWorld;
let copies: ServerCopy[] = [];
let staff: TestUser;
let member: TestUser;
let teamId: number;
let categoryId: number;

beforeAll(async () => {
  world = await createTestWorld();
  const { db } = world.services;
  teamId = (await db.team.create({ data: { name: uniqueName("marked"), password: "team-secret-1" }, select: { id: true } })).id;
  member = await createUser(world, { teamId });
  staff = await createUser(world, { isStaff: true });
  categoryId = (await db.category.create({ data: { name: uniqueName("mark races") }, select: { id: true } })).id;
  copies = await Promise.all([0, 1].map(() => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: testRedisUrl(inject("redisUrl")) })));
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

async function markSolved(copy: ServerCopy, challenge: number): Promise<{ status: number; code: string | null }> {
  const res = await fetch(`${copy.url}/trpc/moderation.markSolved`, {
    method: "POST",
    headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" },
    body: JSON.stringify({ json: { team: teamId, challenge } }),
  });
  const body = (await res.json()) as { error?: { json?: { data?: { appCode?: string } } } };
  return { status: res.status, code: res.ok ? null : (body.error?.json?.data?.appCode ?? "unknown") };
}

async function submit(copy: ServerCopy, challenge: number): Promise<{ status: number; m: string }> {
  const res = await fetch(`${copy.url}/api/v2/challenges/submit_flag/`, {
    method: "POST",
    headers: { authorization: `Token ${member.token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge, flag: "flag{right}" }),
  });
  return { status: res.status, m: ((await res.json()) as { m: string }).m };
}

describe("marking solved while the team sends the flag, on two copies", () => {
  it("makes one solve a round, and answers both calls", async () => {
    const { db } = world.services;
    const challenges: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const created = await db.challenge.create({
        data: { categoryId, name: uniqueName("marked"), flagType: "plaintext", flagMetadata: { flag: "flag{right}" }, score: 10, currentScore: 10 },
        select: { id: true },
      });
      challenges.push(created.id);
    }
    const answers: { mark: { status: number; code: string | null }; flag: { status: number; m: string } }[] = [];
    for (let start = 0; start < ROUNDS; start += ROUNDS_IN_FLIGHT) {
      await Promise.all(
        challenges.slice(start, start + ROUNDS_IN_FLIGHT).map(async (challenge, i) => {
          const round = start + i;
          const [mark, flag] = await Promise.all([markSolved(copies[round % 2]!, challenge), submit(copies[(round + 1) % 2]!, challenge)]);
          answers.push({ mark, flag });
        }),
      );
    }
    for (const { mark, flag } of answers) {
      expect(mark.status).not.toBe(500);
      expect(flag.status).not.toBe(500);
      const won = [mark.status === 200, flag.m === "correct_flag"].filter(Boolean).length;
      expect({ won, mark, flag }).toMatchObject({ won: 1 });
      if (mark.status !== 200) expect(mark).toEqual({ status: 403, code: "already_solved_challenge" });
      else expect(flag.m).toBe("already_solved_challenge");
    }
    const solves = await db.solve.groupBy({ by: ["challengeId"], where: { challengeId: { in: challenges } }, _count: { _all: true } });
    expect(solves.map((s) => s._count._all)).toEqual(challenges.map(() => 1));
    const counted = await db.challenge.findMany({ where: { id: { in: challenges } }, select: { solveCount: true } });
    expect(counted.every((c) => c.solveCount === 1)).toBe(true);
    const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { points: true } });
    expect(team.points).toBe(ROUNDS * 10);
    // Both ways of solving are in the log: some rounds the flag won, some the mark.
    expect(await db.solve.count({ where: { challengeId: { in: challenges }, markedById: staff.id } })).toBe(answers.filter((a) => a.mark.status === 200).length);
  }, 120_000);
});
