import { createDb } from "@flagship/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { warmCatalog } from "./catalog.ts";
import { createCategory, createChallenge, createTeamWith, type TestTeam } from "./fixtures.ts";

/**
 * A challenge scheduled for release is hidden from players everywhere until its time, then shown
 * with no staff action and announced as a challenge staff unhide is; staff see it all along, with
 * its schedule, and set or clear it.
 */
let world: TestWorld;
let staff: TestUser;
let team: TestTeam;
let other: TestTeam;
let openId: number;
let categoryId: number;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  team = await createTeamWith(world);
  other = await createTeamWith(world);
  categoryId = (await createCategory(world)).id;
  openId = (await createChallenge(world, categoryId, { name: "Open door" })).id;
});
afterAll(() => world.close());

const ids = (categories: { challenges: { id: number }[] }[]) => categories.flatMap((c) => c.challenges.map((ch) => ch.id));

describe("a scheduled challenge", () => {
  it("is refused with invalid when the time is not ISO-8601, and nothing changes", async () => {
    const caller = callerFor(world, staff);
    await expect(caller.challenges.update({ id: openId, patch: { scheduled_at: "tomorrow at noon" } })).rejects.toMatchObject({ message: expect.stringMatching(/ISO-8601/) });
    expect((await caller.challenges.get({ id: openId })) as any).toMatchObject({ scheduled_at: null });
  });

  it("is hidden from players until its time, shown to staff with it, then released on its own and announced", async () => {
    const staffCaller = callerFor(world, staff);
    const player = callerFor(world, team.members[0]!);
    const release = new Date(Date.now() + 3000);
    const made = await staffCaller.challenges.create({
      category: categoryId,
      name: "Midnight drop",
      score: 300,
      flag_metadata: { flag: "flag{drop}" },
      scheduled_at: release.toISOString(),
      hints: [{ name: "Nudge", penalty: 10, text: "Look at the clock." }],
    });
    expect(made).toMatchObject({ name: "Midnight drop", hidden: false, scheduled_at: release.toISOString() });
    const hintId = made.hints[0]!.id;
    // A challenge behind it names it only by id, and stays a locked stub.
    const behind = await staffCaller.challenges.create({ category: categoryId, name: "After the drop", score: 100, flag_metadata: { flag: "flag{after}" }, unlock_requirements: `${made.id}` });

    // Staff: listed and readable, with the schedule; staff testing it take no first blood.
    expect(ids(await staffCaller.challenges.categories())).toContain(made.id);
    expect(await staffCaller.challenges.get({ id: made.id })).toMatchObject({ scheduled_at: release.toISOString() });
    // Players: not listed, not found by id, no flag, no hint, no solve of it on any board.
    expect(ids(await player.challenges.categories())).not.toContain(made.id);
    await expect(player.challenges.get({ id: made.id })).rejects.toMatchObject({ message: expect.stringMatching(/not found/i) });
    await expect(player.challenges.submitFlag({ challenge: made.id, flag: "flag{drop}" })).rejects.toMatchObject({ message: expect.stringMatching(/not found/i) });
    await expect(player.hints.use({ id: hintId })).rejects.toMatchObject({ message: expect.stringMatching(/not found/i) });
    expect(await player.challenges.get({ id: behind.id })).toMatchObject({ unlocked: false });
    expect(await player.challenges.get({ id: behind.id })).not.toHaveProperty("name");

    const otherPlayer = callerFor(world, other.members[0]!);
    await expect(otherPlayer.challenges.submitFlag({ challenge: made.id, flag: "flag{drop}" })).rejects.toMatchObject({ message: expect.stringMatching(/not found/i) });
    const announcedBefore = world.events.filter((e) => e.kind === "socket" && (e.payload as { challenge_id?: number }).challenge_id === made.id);
    expect(announcedBefore.every((e) => e.kind === "socket" && "staff" in e.audience && !("all" in e.audience))).toBe(true);

    // The moment passes: no staff action, and the listing (served from the cached catalog) has it.
    await new Promise((resolve) => setTimeout(resolve, release.getTime() - Date.now() + 300));
    expect(ids(await player.challenges.categories())).toContain(made.id);
    expect(await player.challenges.get({ id: made.id })).toMatchObject({ name: "Midnight drop", unlocked: true });
    expect(await player.challenges.get({ id: made.id })).not.toHaveProperty("scheduled_at");
    expect(await player.hints.use({ id: hintId })).toMatchObject({ text: "Look at the clock." });
    expect(await player.challenges.submitFlag({ challenge: made.id, flag: "flag{drop}" })).toMatchObject({ d: { correct: true } });
    expect(await player.challenges.get({ id: behind.id })).toMatchObject({ name: "After the drop", unlocked: true });
    // Announced to everyone once, as a challenge staff unhide is.
    const released = world.events.filter((e) => e.kind === "socket" && "all" in e.audience && (e.payload as { event_code?: number; challenge_id?: number }).event_code === 6 && (e.payload as { challenge_id?: number }).challenge_id === made.id);
    expect(released).toHaveLength(1);
    // Its solves and first blood are named on the boards now.
    const matrix = await callerFor(world, other.members[0]!).leaderboard.matrix({ offset: 0, limit: 50 });
    expect("results" in matrix && matrix.results.find((r) => r.id === team.id)?.solve_ids).toContain(made.id);
  }, 30_000);

  it("is staff's to move or clear: cleared, players see it at once", async () => {
    const staffCaller = callerFor(world, staff);
    const player = callerFor(world, team.members[0]!);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const made = await staffCaller.challenges.create({ category: categoryId, name: "Later", score: 100, flag_metadata: { flag: "flag{later}" }, scheduled_at: later });
    expect(ids(await player.challenges.categories())).not.toContain(made.id);
    // Solved by staff (testing it): no player learns of it from the boards.
    const solverTeam = await createTeamWith(world);
    await world.services.db.solve.create({ data: { teamId: solverTeam.id, userId: solverTeam.members[0]!.id, challengeId: made.id, points: 100, firstBlood: true } });
    const blooded = await player.leaderboard.firstBloods();
    expect(JSON.stringify(blooded)).not.toContain("Later");
    const matrix = await player.leaderboard.matrix({ offset: 0, limit: 50 });
    expect("results" in matrix && matrix.results.flatMap((r) => r.solve_ids)).not.toContain(made.id);

    expect(await staffCaller.challenges.update({ id: made.id, patch: { scheduled_at: null } })).toMatchObject({ scheduled_at: null });
    expect(ids(await player.challenges.categories())).toContain(made.id);
    const audit = await world.services.db.auditLog.findFirst({ where: { action: "update_challenge" }, orderBy: { id: "desc" } });
    expect(audit?.extra).toMatchObject({ id: made.id, fields: ["scheduled_at"] });
  });
});

describe("the challenge suggested next", () => {
  it("is stored by id, refused when it does not exist or is the challenge itself, and read by players as an id", async () => {
    const staffCaller = callerFor(world, staff);
    const second = await staffCaller.challenges.create({ category: categoryId, name: "Second step", score: 100, flag_metadata: { flag: "flag{2}" } });
    const first = await staffCaller.challenges.create({ category: categoryId, name: "First step", score: 100, flag_metadata: { flag: "flag{1}" }, next_challenge: second.id });
    expect(first).toMatchObject({ next_challenge: second.id });
    await expect(staffCaller.challenges.update({ id: first.id, patch: { next_challenge: 999_999 } })).rejects.toMatchObject({ message: expect.stringMatching(/does not exist/) });
    await expect(staffCaller.challenges.update({ id: first.id, patch: { next_challenge: first.id } })).rejects.toMatchObject({ message: expect.stringMatching(/cannot suggest itself/) });
    expect(await callerFor(world, team.members[0]!).challenges.get({ id: first.id })).toMatchObject({ next_challenge: second.id });
    // Deleting the suggestion leaves none.
    await staffCaller.challenges.delete({ id: second.id });
    expect(await staffCaller.challenges.get({ id: first.id })).toMatchObject({ next_challenge: null });
  });
});

describe("a release that passes while no copy has the challenges cached", () => {
  it("is announced by the first copy to read them afterwards, once across copies; a hidden one is not", async () => {
    // An event of its own: no catalog of this database is cached anywhere, so no timer waits for the release.
    const quiet = await createTestWorld();
    const copies = [createDb(quiet.database.url, { poolSize: 2 }), createDb(quiet.database.url, { poolSize: 2 })];
    try {
      const category = await createCategory(quiet);
      const release = new Date(Date.now() + 1500);
      const made = await quiet.services.db.challenge.create({ data: { categoryId: category.id, name: "Dawn drop", score: 100, currentScore: 100, scheduledAt: release }, select: { id: true } });
      const hidden = await quiet.services.db.challenge.create({ data: { categoryId: category.id, name: "Still hidden", score: 100, currentScore: 100, scheduledAt: release, hidden: true }, select: { id: true } });
      const announced = (id: number) =>
        quiet.events.filter((e) => e.kind === "socket" && "all" in e.audience && (e.payload as { event_code?: number }).event_code === 6 && (e.payload as { challenge_id?: number }).challenge_id === id);

      // The moment passes with every copy down (nothing read the challenges): nobody heard of it.
      await new Promise((resolve) => setTimeout(resolve, release.getTime() - Date.now() + 300));
      expect(announced(made.id)).toHaveLength(0);

      // Two copies start (or build their listing) afterwards: the first announces it, the second stays quiet.
      const [first, second] = copies.map((db) => ({ db, events: quiet.services.events }));
      await warmCatalog(first!);
      await vi.waitFor(() => expect(announced(made.id)).toHaveLength(1), { timeout: 5000 });
      await warmCatalog(second!);
      // A player's listing read through the world's own copy too.
      const player = (await createTeamWith(quiet)).members[0]!;
      expect(ids(await callerFor(quiet, player).challenges.categories())).toContain(made.id);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(announced(made.id)).toHaveLength(1);
      expect(announced(hidden.id)).toHaveLength(0);
    } finally {
      await Promise.all(copies.map((db) => db.$disconnect()));
      await quiet.close();
    }
  }, 30_000);
});
