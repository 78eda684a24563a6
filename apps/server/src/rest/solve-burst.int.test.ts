import { createCategory, createChallenge, createTeamWith, type TestTeam } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../testing.ts";

/**
 * The start-of-event rush on one challenge: many teams send its flag at the same moment, each
 * twice (two members). Every request gets a real answer (never a 500, however long the queue on
 * the challenge's row), each team scores exactly once, and the challenge counts every team once.
 */
const TEAMS = 60;

let server: TestServer;
let teams: TestTeam[];
let challengeId: number;

beforeAll(async () => {
  server = await createTestServer();
  teams = [];
  for (let i = 0; i < TEAMS; i++) teams.push(await createTeamWith(server.world, 2));
  const category = await createCategory(server.world);
  challengeId = (await createChallenge(server.world, category.id, { score: 100 })).id;
}, 120_000);
afterAll(() => server.close());

describe("a burst of correct flags for one challenge", () => {
  it("answers every request, and records exactly one solve and one score record per team", async () => {
    const answers = await Promise.all(
      teams.flatMap((team) =>
        team.members.map((member) => server.api("POST", "/challenges/submit_flag/", { token: member.token, body: { challenge: challengeId, flag: "flag{right}" } })),
      ),
    );
    const outcomes = answers.map((a) => `${a.status} ${a.body.m}`);
    expect(outcomes.filter((o) => o === "200 correct_flag")).toHaveLength(TEAMS);
    expect(outcomes.filter((o) => o === "403 already_solved_challenge")).toHaveLength(TEAMS);

    const { db } = server.world.services;
    const perTeam = await db.solve.groupBy({ by: ["teamId"], where: { challengeId }, _count: { _all: true } });
    expect(perTeam).toHaveLength(TEAMS);
    expect(perTeam.every((row) => row._count._all === 1)).toBe(true);
    const solveIds = (await db.solve.findMany({ where: { challengeId }, select: { id: true } })).map((s) => s.id);
    expect(await db.scoreRecord.count({ where: { solveId: { in: solveIds }, reason: "solve" } })).toBe(TEAMS);
    expect((await db.challenge.findUniqueOrThrow({ where: { id: challengeId } })).solveCount).toBe(TEAMS);
    const points = await db.team.findMany({ where: { id: { in: teams.map((t) => t.id) } }, select: { points: true } });
    expect(points.every((t) => t.points === 100)).toBe(true);
  });
});
