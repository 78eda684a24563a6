import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, TEST_PASSWORD, type TestWorld, uniqueName } from "../testing/index.ts";

let world: TestWorld;
beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(() => world.close());

describe("own profile", () => {
  it("reads the own account without secrets", async () => {
    const user = await createUser(world);
    const self = await callerFor(world, user).account.self();
    expect(self).toMatchObject({ id: user.id, username: user.username, email: user.email, has_2fa: false, team: null, solves: [], incorrect_solves: 0 });
    expect(JSON.stringify(self)).not.toMatch(/argon2|password|totp_secret|keyHash/i);
  });

  it("edits profile fields and username within the limits, and refuses bad input without changing anything", async () => {
    const user = await createUser(world);
    const caller = callerFor(world, user);
    const newName = uniqueName("renamed");
    const updated = await caller.account.update({ discord: "me#1", discordid: "123456789012345678", twitter: "tw", reddit: "rd", bio: "b".repeat(400), username: newName });
    expect(updated).toMatchObject({ discord: "me#1", discordid: "123456789012345678", bio: "b".repeat(400), username: newName });
    await expect(caller.account.update({ bio: "b".repeat(401), twitter: "changed" })).rejects.toMatchObject({ cause: { code: "max_length", details: { bio: [expect.any(String)] } } });
    await expect(caller.account.update({ discordid: "abc" })).rejects.toMatchObject({ cause: { code: "invalid" } });
    await expect(caller.account.update({ username: "" })).rejects.toMatchObject({ cause: { code: "blank" } });
    expect((await caller.account.self()).twitter).toBe("tw");
  });

  it("ignores read-only keys older clients send back with the profile", async () => {
    const user = await createUser(world);
    const caller = callerFor(world, user);
    const self = await caller.account.self();
    const updated = await caller.account.update({ ...self, id: 999_999, email: "other@example.test", is_staff: true, bio: "kept" } as never);
    expect(updated).toMatchObject({ id: user.id, email: user.email, is_staff: false, bio: "kept" });
  });

  it("tells the boards about a new username, not about other edits", async () => {
    const user = await createUser(world);
    const caller = callerFor(world, user);
    const changed = { kind: "internal", name: "leaderboard_changed" };
    let seen = world.events.length;
    await caller.account.update({ bio: "no rename" });
    expect(world.events.slice(seen)).not.toContainEqual(changed);
    seen = world.events.length;
    await caller.account.update({ username: uniqueName("renamed") });
    expect(world.events.slice(seen)).toContainEqual(changed);
  });

  it("refuses a username another account has, in any case", async () => {
    const a = await createUser(world);
    const b = await createUser(world);
    await expect(callerFor(world, b).account.update({ username: a.username.toUpperCase() })).rejects.toMatchObject({
      cause: { code: "unique", details: { username: ["That username is already taken."] } },
    });
  });
});

describe("notification preferences", () => {
  it("are all on by default and change one at a time", async () => {
    const user = await createUser(world);
    const caller = callerFor(world, user);
    expect(await caller.account.notifications()).toEqual({ all_solves: true, flag_reject: true, hint_used: true, team_join: true });
    expect(await caller.account.setNotifications({ hint_used: false })).toEqual({ all_solves: true, flag_reject: true, hint_used: false, team_join: true });
    expect(await caller.account.notifications()).toMatchObject({ hint_used: false });
  });
});

describe("account deletion", () => {
  async function teamWith(ownerId: number, memberIds: number[]) {
    const team = await world.services.db.team.create({ data: { name: uniqueName("team"), password: "secret-secret", ownerId }, select: { id: true } });
    await world.services.db.user.updateMany({ where: { id: { in: [ownerId, ...memberIds] } }, data: { teamId: team.id } });
    return team.id;
  }

  it("needs the current password", async () => {
    const user = await createUser(world);
    await expect(callerFor(world, user).account.delete({ password: "wrong" })).rejects.toMatchObject({ cause: { code: "invalid_password" } });
    expect(await world.services.db.user.count({ where: { id: user.id, isActive: true } })).toBe(1);
  });

  it("erases personal data and sessions, keeps the solves for the team and passes ownership on", async () => {
    const owner = await createUser(world);
    const mate = await createUser(world);
    const teamId = await teamWith(owner.id, [mate.id]);
    const category = await world.services.db.category.create({ data: { name: "c" }, select: { id: true } });
    const challenge = await world.services.db.challenge.create({ data: { name: "ch", categoryId: category.id, score: 100 }, select: { id: true } });
    await world.services.db.solve.create({ data: { teamId, userId: owner.id, challengeId: challenge.id, points: 100 } });
    await world.services.db.user.update({ where: { id: owner.id }, data: { bio: "hello", points: 100 } });
    await world.services.db.team.update({ where: { id: teamId }, data: { points: 100 } });
    // A wrong password recorded for staff, with the address it came from.
    await expect(callerFor(world, null).auth.login({ username: owner.username, password: "wrong" })).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
    expect(await world.services.db.signInFailures.count({ where: { userId: owner.id } })).toBe(1);

    const seen = world.events.length;
    await callerFor(world, owner).account.delete({ password: TEST_PASSWORD });
    expect(world.events.slice(seen)).toEqual(
      expect.arrayContaining([
        { kind: "internal", name: "sessions_revoked", data: { userId: owner.id } },
        { kind: "internal", name: "leaderboard_changed" },
      ]),
    );

    const row = await world.services.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(row).toMatchObject({ username: `deleted-${owner.id}`, isActive: false, isVisible: false, bio: "", totpSecret: null });
    expect(row.email).not.toBe(owner.email);
    expect(await world.services.db.authToken.count({ where: { userId: owner.id } })).toBe(0);
    expect(await world.services.db.signInFailures.count({ where: { userId: owner.id } })).toBe(0);
    expect(await world.services.db.solve.count({ where: { teamId } })).toBe(1);
    expect(await world.services.db.team.findUniqueOrThrow({ where: { id: teamId }, select: { ownerId: true, points: true, isVisible: true } })).toEqual({
      ownerId: mate.id,
      points: 100,
      isVisible: true,
    });
    await expect(callerFor(world, null).auth.login({ username: owner.username, password: TEST_PASSWORD })).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
  });

  it("hides a team left without members", async () => {
    const owner = await createUser(world);
    const teamId = await teamWith(owner.id, []);
    await callerFor(world, owner).account.delete({ password: TEST_PASSWORD });
    expect(await world.services.db.team.findUniqueOrThrow({ where: { id: teamId }, select: { ownerId: true, isVisible: true } })).toEqual({ ownerId: null, isVisible: false });
  });
});
