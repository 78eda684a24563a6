import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCategory, createChallenge, createTeamWith } from "../challenges/fixtures.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  await callerFor(world, staff).config.set({ key: "enable_team_leave", value: true });
});
afterAll(() => world.close());

function codeOf(result: PromiseSettledResult<unknown>): string {
  if (result.status === "fulfilled") return "ok";
  return (result.reason as { cause?: { code?: string } }).cause?.code ?? String(result.reason);
}

describe("a solve racing a team leave", () => {
  it("never lands a solve on a team the solver left, and keeps team points the sum of its members'", async () => {
    const category = await createCategory(world);
    for (let round = 0; round < 10; round++) {
      const challenge = await createChallenge(world, category.id, { score: 100 });
      // The leaver is not the owner, so only the solve can stop the leave.
      const team = await createTeamWith(world, 2);
      const leaver = team.members[1]!;
      const caller = callerFor(world, leaver);
      const [solve, leave] = await Promise.allSettled([
        caller.challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" }),
        caller.teams.leave(),
      ]);

      const user = await world.services.db.user.findUniqueOrThrow({ where: { id: leaver.id }, select: { teamId: true, points: true } });
      const solves = await world.services.db.solve.findMany({ where: { userId: leaver.id }, select: { teamId: true } });
      if (codeOf(leave) === "ok") {
        // The leave won: the solve was refused and nothing was recorded for the user.
        expect(user.teamId, `round ${round}`).toBeNull();
        expect(solves, `round ${round}`).toEqual([]);
        expect(codeOf(solve), `round ${round}`).toBe("permission_denied");
      } else {
        // The solve won: the leave was refused and the user stays with the points.
        expect(codeOf(leave), `round ${round}`).toBe("challenge_solved");
        expect(codeOf(solve), `round ${round}`).toBe("ok");
        expect(user, `round ${round}`).toEqual({ teamId: team.id, points: 100 });
        expect(solves, `round ${round}`).toEqual([{ teamId: team.id }]);
      }
      const dbTeam = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true } });
      const members = await world.services.db.user.aggregate({ where: { teamId: team.id }, _sum: { points: true } });
      expect(dbTeam.points, `round ${round}`).toBe(members._sum.points ?? 0);
    }
  });
});
