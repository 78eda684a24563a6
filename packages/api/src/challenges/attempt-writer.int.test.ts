import { createDb, type Db } from "@flagship/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createCategory, createChallenge, createTeamWith, createTestWorld, type TestTeam, type TestWorld } from "../testing/index.ts";
import { recordIncorrectAttempt } from "./attempt-writer.ts";

/**
 * Wrong flags are written with group commit: attempts that arrive together share one multi-row
 * INSERT, and each is answered only once its row is committed.
 */
let world: TestWorld;
let counting: Db;
let inserts = 0;
let teams: TestTeam[];
let challenge: { id: number };

beforeAll(async () => {
  world = await createTestWorld();
  counting = createDb(world.database.url, {
    poolSize: 4,
    onQuery: (sql) => {
      if (sql.includes("INSERT INTO incorrect_attempts")) inserts += 1;
    },
  });
  const category = await createCategory(world);
  challenge = await createChallenge(world, category.id);
  teams = [];
  for (let i = 0; i < 5; i++) teams.push(await createTeamWith(world, 2));
});
afterAll(async () => {
  await counting.$disconnect();
  await world.close();
});

const attemptsOf = (flag: string) => world.services.db.incorrectAttempt.count({ where: { flag } });

describe("group commit of wrong flags", () => {
  it("writes attempts that arrive together in a few statements, each answered once its row is committed", async () => {
    inserts = 0;
    const flag = "flag{together}";
    const team = teams[0]!;
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        recordIncorrectAttempt(counting, { teamId: team.id, userId: team.members[i % 2]!.id, challengeId: challenge.id, flag, ip: "192.0.2.1" }).then(async () => {
          // Acknowledged means committed: another connection sees the row already.
          seen.push(await attemptsOf(flag));
        }),
      ),
    );
    expect(await attemptsOf(flag)).toBe(60);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(1);
    // One statement at a time: the first goes alone, everything arriving meanwhile waits for the next together.
    expect(inserts).toBeLessThanOrEqual(2);
  });

  it("fails only the request whose row cannot be written, not the others in its statement", async () => {
    const flag = "flag{one-bad-row}";
    const team = teams[1]!;
    const rows = Array.from({ length: 12 }, (_, i) => ({ teamId: team.id, userId: team.members[0]!.id, challengeId: i === 7 ? 999_999 : challenge.id, flag, ip: null }));
    const results = await Promise.allSettled(rows.map((row) => recordIncorrectAttempt(counting, row)));
    expect(results.map((r) => r.status)).toEqual(rows.map((_, i) => (i === 7 ? "rejected" : "fulfilled")));
    expect(await attemptsOf(flag)).toBe(11);
  });

  it("answers with the team's and the user's totals, the highest of them the true count, across two copies", async () => {
    // Two server copies: two clients, each with its own writer, recording the same team's flags at once.
    const other = createDb(world.database.url, { poolSize: 4 });
    try {
      const team = teams[2]!;
      const [alex, sam] = team.members;
      const flag = "flag{two-copies}";
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          recordIncorrectAttempt(i % 2 === 0 ? counting : other, { teamId: team.id, userId: (i % 4 < 2 ? alex : sam)!.id, challengeId: challenge.id, flag, ip: null }),
        ),
      );
      const counted = (where: { teamId?: number; userId?: number }) => world.services.db.incorrectAttempt.count({ where });
      expect(Math.max(...answers.map((a) => a.team))).toBe(await counted({ teamId: team.id }));
      expect(Math.max(...answers.filter((_, i) => i % 4 < 2).map((a) => a.user))).toBe(await counted({ userId: alex!.id }));
      expect(Math.max(...answers.filter((_, i) => i % 4 >= 2).map((a) => a.user))).toBe(await counted({ userId: sam!.id }));
      expect(await world.services.db.teamAttemptTotal.findUnique({ where: { teamId: team.id } })).toMatchObject({ n: 80 });
    } finally {
      await other.$disconnect();
    }
  });

  it("lowers the totals when attempts go with a deleted challenge", async () => {
    const team = teams[3]!;
    const category = await createCategory(world);
    const doomed = await createChallenge(world, category.id);
    await recordIncorrectAttempt(counting, { teamId: team.id, userId: team.members[0]!.id, challengeId: challenge.id, flag: "flag{kept}", ip: null });
    const last = await recordIncorrectAttempt(counting, { teamId: team.id, userId: team.members[0]!.id, challengeId: doomed.id, flag: "flag{gone}", ip: null });
    expect(last).toEqual({ team: 2, user: 2 });
    await world.services.db.challenge.delete({ where: { id: doomed.id } });
    expect(await world.services.db.teamAttemptTotal.findUnique({ where: { teamId: team.id } })).toMatchObject({ n: 1 });
    expect(await world.services.db.userAttemptTotal.findUnique({ where: { userId: team.members[0]!.id } })).toMatchObject({ n: 1 });
  });

  it("answers every concurrent wrong flag through submitFlag, and records each", async () => {
    const flag = "flag{crowd}";
    const players = teams.flatMap((t) => t.members);
    const answers = await Promise.all(players.map((p) => callerFor(world, p).challenges.submitFlag({ challenge: challenge.id, flag })));
    expect(answers.every((a) => a.m === "incorrect_flag")).toBe(true);
    const rows = await world.services.db.incorrectAttempt.findMany({ where: { flag }, select: { userId: true, teamId: true } });
    expect(rows.map((r) => r.userId).sort()).toEqual(players.map((p) => p.id).sort());
  });
});
