import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { recordSolve, seedChallenges } from "./test-factories.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

async function team(name: string) {
  const t = await world.services.db.team.create({ data: { name: uniqueName(name), password: "secretsecret" } });
  const member = await createUser(world, { teamId: t.id });
  return { ...t, member };
}

const minutes = (n: number) => new Date(Date.UTC(2030, 0, 1, 12, n));

/** A solve, marked first blood as the scoring domain would for the first team on a challenge. */
async function solve(t: Awaited<ReturnType<typeof team>>, challenge: { id: number; score: number; tiebreaker: boolean }, at: Date, firstBlood: boolean) {
  await recordSolve(world, { userId: t.member.id, teamId: t.id, challenge, at });
  if (firstBlood) await world.services.db.solve.updateMany({ where: { teamId: t.id, challengeId: challenge.id }, data: { firstBlood: true } });
}

function shown<T>(page: T | { hidden: true }): T {
  if (typeof page === "object" && page !== null && "hidden" in page) throw new Error("hidden");
  return page;
}

describe("latest first bloods", () => {
  it("lists first bloods newest first, leaving hidden challenges and unlisted teams to staff, and hides with the scoreboard", async () => {
    const [a, b] = await Promise.all([team("blood-a"), team("blood-b")]);
    const [c1, c2, c3] = await seedChallenges(world, [100, 200, 300]);
    await world.services.db.challenge.update({ where: { id: c3!.id }, data: { hidden: true } });
    await solve(a, c1!, minutes(1), true);
    await solve(b, c1!, minutes(2), false);
    await solve(b, c2!, minutes(3), true);
    await solve(a, c3!, minutes(4), true);
    const player = a.member;

    const rows = async (caller: ReturnType<typeof callerFor>, limit?: number) =>
      shown(await caller.leaderboard.firstBloods(limit === undefined ? undefined : { limit })).results.map((r) => [r.challenge_name, r.solver_name]);

    expect(await rows(callerFor(world, null))).toEqual([
      [c2!.name, b.name],
      [c1!.name, a.name],
    ]);
    expect(await rows(callerFor(world, staff))).toEqual([
      [c3!.name, a.name],
      [c2!.name, b.name],
      [c1!.name, a.name],
    ]);
    expect(await rows(callerFor(world, player), 1)).toEqual([[c2!.name, b.name]]);
    const first = shown(await callerFor(world, null).leaderboard.firstBloods({ limit: 1 })).results[0]!;
    expect(first).toEqual({ challenge_id: c2!.id, challenge_name: c2!.name, solver_name: b.name, timestamp: minutes(3).toISOString() });

    // A team kept off the board (hidden by staff) is kept off this list too.
    await world.services.db.team.update({ where: { id: b.id }, data: { isVisible: false } });
    expect(await rows(callerFor(world, player))).toEqual([[c1!.name, a.name]]);
    await world.services.db.team.update({ where: { id: b.id }, data: { isVisible: true } });

    await callerFor(world, staff).config.set({ key: "enable_scoreboard", value: false });
    expect(await callerFor(world, player).leaderboard.firstBloods()).toEqual({ hidden: true });
    expect(await rows(callerFor(world, staff))).toHaveLength(3);
    await callerFor(world, staff).config.set({ key: "enable_scoreboard", value: true });
  });

  it("shows players only the first bloods taken before the scoreboard froze", async () => {
    const [a, b] = await Promise.all([team("frozen-a"), team("frozen-b")]);
    const [c1, c2] = await seedChallenges(world, [100, 100]);
    const now = Date.now();
    await solve(a, c1!, new Date(now - 60 * 60_000), true);
    await solve(b, c2!, new Date(now - 60_000), true);
    await callerFor(world, staff).config.set({ key: "scoreboard_freeze_time", value: Math.floor((now - 30 * 60_000) / 1000) });
    try {
      const names = (page: Awaited<ReturnType<ReturnType<typeof callerFor>["leaderboard"]["firstBloods"]>>) => shown(page).results.map((r) => r.challenge_name);
      expect(names(await callerFor(world, a.member).leaderboard.firstBloods({ limit: 20 }))).toContain(c1!.name);
      expect(names(await callerFor(world, a.member).leaderboard.firstBloods({ limit: 20 }))).not.toContain(c2!.name);
      expect(names(await callerFor(world, staff).leaderboard.firstBloods({ limit: 20 }))).toContain(c2!.name);
    } finally {
      await callerFor(world, staff).config.set({ key: "scoreboard_freeze_time", value: null });
    }
  });
});
