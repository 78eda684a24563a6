import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedChallenge, seedIncorrectAttempt, seedSolve, seedTeam } from "../teams/test-factories.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

const appCode = (code: string) => ({ cause: { code } });

describe("the member list", () => {
  it("orders by username, pages, searches, and hides invisible members and their email from players", async () => {
    const prefix = uniqueName("m");
    const carol = await createUser(world, { username: `${prefix}carol` });
    const alice = await createUser(world, { username: `${prefix}Alice` });
    await createUser(world, { username: `${prefix}bob`, isVisible: false });
    const page = await callerFor(world, carol).users.list({ search: prefix, limit: 1 });
    expect(page.count).toBe(2);
    expect(page.results.map((m) => m.username)).toEqual([alice.username]);
    expect(page.results[0]).not.toHaveProperty("email");
    const next = await callerFor(world, carol).users.list({ search: prefix, limit: 1, cursor: 1 });
    expect(next.results.map((m) => m.username)).toEqual([carol.username]);

    const asStaff = await callerFor(world, staff).users.list({ search: prefix });
    expect(asStaff.results.map((m) => m.username)).toEqual([alice.username, `${prefix}bob`, carol.username]);
    expect(asStaff.results[0]).toMatchObject({ email: alice.email, is_visible: true, is_active: true });
    expect((await callerFor(world, staff).users.list({ search: `${prefix}bob@` })).count).toBe(1);
    expect((await callerFor(world, null).users.list({ search: `${prefix}bob@` })).count).toBe(0);
  });

  it("leaves staff accounts out when asked, as the player list asks, for anyone; only staff may list staff alone", async () => {
    const prefix = uniqueName("crew");
    const player = await createUser(world, { username: `${prefix}player` });
    await createUser(world, { username: `${prefix}organiser`, isStaff: true });
    const names = async (reader: TestUser | null, is_staff?: boolean) => (await callerFor(world, reader).users.list({ search: prefix, ...(is_staff !== undefined && { is_staff }) })).results.map((m) => m.username);
    expect(await names(null, false)).toEqual([player.username]);
    expect(await names(player, false)).toEqual([player.username]);
    expect(await names(staff, false)).toEqual([player.username]);
    // Without the filter (the REST API's older clients) everyone visible is listed, as before.
    expect(await names(null)).toEqual([`${prefix}organiser`, player.username]);
    // Asking for staff alone is a staff filter: a player's request lists everyone visible.
    expect(await names(player, true)).toEqual([`${prefix}organiser`, player.username]);
    expect(await names(staff, true)).toEqual([`${prefix}organiser`]);
  });

  it("gives staff each member's points, verification and joining date for the members table", async () => {
    const prefix = uniqueName("cols");
    const member = await createUser(world, { username: `${prefix}dana` });
    const challenge = await seedChallenge(world, { score: 120 });
    const team = await seedTeam(world, { ownerId: member.id });
    await seedSolve(world, { userId: member.id, teamId: team.id, challengeId: challenge.id, points: 120 });
    await world.services.db.user.update({ where: { id: member.id }, data: { emailVerified: false, points: 120, leaderboardPoints: 120 } });
    const [row] = (await callerFor(world, staff).users.list({ search: prefix })).results;
    expect(row).toMatchObject({ id: member.id, points: 120, email_verified: false, is_verified: false });
    expect(Date.parse(row!.date_joined)).toBeGreaterThan(Date.now() - 60_000);
    // Players see points and the joining date, never whether an email was verified.
    const [publicRow] = (await callerFor(world, null).users.list({ search: prefix })).results;
    expect(publicRow).toMatchObject({ points: 120 });
    expect(publicRow).not.toHaveProperty("email_verified");
  });

  it("names a member's team only when the team is visible", async () => {
    const team = await seedTeam(world, { isVisible: false });
    const member = await createUser(world, { teamId: team.id });
    const [publicView] = (await callerFor(world, null).users.list({ search: member.username })).results;
    expect(publicView).toMatchObject({ team: null, team_name: null });
    const [staffView] = (await callerFor(world, staff).users.list({ search: member.username })).results;
    expect(staffView).toMatchObject({ team: team.id, team_name: team.name });
  });
});

describe("a member's profile", () => {
  it("shows public fields, solves after penalty and the incorrect count; 'me' is the caller", async () => {
    const user = await createUser(world);
    const team = await seedTeam(world, { ownerId: user.id });
    const challenge = await seedChallenge(world, { score: 200 });
    await seedSolve(world, { userId: user.id, teamId: team.id, challengeId: challenge.id, points: 200, penalty: 25 });
    await seedIncorrectAttempt(world, { userId: user.id, teamId: team.id, challengeId: challenge.id });
    await seedIncorrectAttempt(world, { userId: user.id, teamId: team.id, challengeId: challenge.id });

    const profile = await callerFor(world, null).users.get({ id: user.id });
    expect(profile).toMatchObject({ id: user.id, username: user.username, team: team.id, team_name: team.name, points: 175, incorrect_solves: 2 });
    expect(profile.solves).toEqual([expect.objectContaining({ challenge: challenge.id, points: 175, solved_by_name: user.username })]);
    for (const secret of ["email", "passwordHash", "password_hash", "totpSecret"]) expect(profile).not.toHaveProperty(secret);
    expect((await callerFor(world, { actor: user.actor }).users.get({ id: "me" })).id).toBe(user.id);
    await expect(callerFor(world, null).users.get({ id: "me" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("is found by username as by id, case-insensitively, with the same visibility", async () => {
    const user = await createUser(world, { username: uniqueName("Ada") });
    expect((await callerFor(world, null).users.byName({ username: user.username.toLowerCase() })).id).toBe(user.id);
    expect((await callerFor(world, null).users.byName({ username: user.username })).username).toBe(user.username);
    const hidden = await createUser(world, { isVisible: false });
    await expect(callerFor(world, null).users.byName({ username: hidden.username })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await callerFor(world, staff).users.byName({ username: hidden.username })).id).toBe(hidden.id);
    await expect(callerFor(world, null).users.byName({ username: uniqueName("nobody") })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("is not_found for an invisible member, except to staff and themselves", async () => {
    const hidden = await createUser(world, { isVisible: false });
    await expect(callerFor(world, null).users.get({ id: hidden.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(callerFor(world, null).users.stats({ id: hidden.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await callerFor(world, staff).users.get({ id: hidden.id })).email).toBe(hidden.email);
    expect((await callerFor(world, hidden).users.get({ id: hidden.id })).id).toBe(hidden.id);
    await expect(callerFor(world, null).users.get({ id: 999_999 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("draws the charts' data", async () => {
    const user = await createUser(world);
    const team = await seedTeam(world, { ownerId: user.id });
    const a = await seedChallenge(world, { score: 100 });
    const b = await seedChallenge(world, { score: 50 });
    await seedSolve(world, { userId: user.id, teamId: team.id, challengeId: a.id, points: 100, at: new Date("2030-02-01T00:00:00Z") });
    await seedSolve(world, { userId: user.id, teamId: team.id, challengeId: b.id, points: 50, at: new Date("2030-02-02T00:00:00Z") });
    await seedIncorrectAttempt(world, { userId: user.id, teamId: team.id, challengeId: a.id });
    const stats = await callerFor(world, null).users.stats({ id: user.id });
    expect(stats).toMatchObject({ correct: 2, incorrect: 1 });
    expect(stats.score.map((p) => p.points)).toEqual([100, 150]);
    expect(stats.categories.filter((c) => c.solved > 0).map((c) => c.points).sort()).toEqual([100, 50]);
  });
});

describe("staff edits", () => {
  it("changes any field, audited; players are refused", async () => {
    const user = await createUser(world);
    const other = await createUser(world);
    await expect(callerFor(world, other).users.staffUpdate({ id: user.id, patch: { bio: "x" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const updated = await callerFor(world, staff).users.staffUpdate({
      id: user.id,
      patch: { bio: "Reverse engineer", is_verified: true, state_actor: true, is_visible: false, twitter: "rev" },
    });
    expect(updated).toMatchObject({ bio: "Reverse engineer", is_verified: true, state_actor: true, is_visible: false, twitter: "rev" });
    const entry = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "edit_member" }, orderBy: { id: "desc" }, select: { extra: true, userId: true } });
    expect(entry).toEqual({
      userId: staff.id,
      extra: {
        user: user.id,
        fields: ["bio", "twitter", "is_verified", "state_actor", "is_visible"],
        changes: {
          bio: { old: "", new: "Reverse engineer" },
          twitter: { old: "", new: "rev" },
          is_verified: { old: false, new: true },
          state_actor: { old: false, new: true },
          is_visible: { old: true, new: false },
        },
      },
    });
  });

  it("closes the websockets of an account it deactivates, and only then", async () => {
    const user = await createUser(world);
    const revoked = { kind: "internal", name: "sessions_revoked", data: { userId: user.id } };
    let seen = world.events.length;
    await callerFor(world, staff).users.staffUpdate({ id: user.id, patch: { bio: "still active", is_active: true } });
    expect(world.events.slice(seen)).not.toContainEqual(revoked);
    seen = world.events.length;
    await callerFor(world, staff).users.staffUpdate({ id: user.id, patch: { is_active: false } });
    expect(world.events.slice(seen)).toContainEqual(revoked);
  });

  it("refuses a taken username and bad fields, changing nothing", async () => {
    const user = await createUser(world);
    const other = await createUser(world);
    const before = await world.services.db.auditLog.count();
    await expect(callerFor(world, staff).users.staffUpdate({ id: user.id, patch: { username: other.username.toUpperCase(), bio: "changed" } })).rejects.toMatchObject({
      cause: { code: "unique", details: { username: ["That username is already taken."] } },
    });
    await expect(callerFor(world, staff).users.staffUpdate({ id: user.id, patch: { bio: "x".repeat(401) } })).rejects.toMatchObject(appCode("max_length"));
    await expect(callerFor(world, staff).users.staffUpdate({ id: user.id, patch: { team: 999_999 } })).rejects.toMatchObject(appCode("invalid"));
    await expect(callerFor(world, staff).users.staffUpdate({ id: 999_999, patch: { bio: "x" } })).rejects.toMatchObject(appCode("not_found"));
    expect((await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { bio: true } })).bio).toBe("");
    expect(await world.services.db.auditLog.count()).toBe(before);
  });

  it("moves a member between teams with their points, handing ownership on", async () => {
    const owner = await createUser(world);
    const from = await seedTeam(world, { ownerId: owner.id });
    const mate = await createUser(world, { teamId: from.id });
    const to = await seedTeam(world);
    const challenge = await seedChallenge(world);
    await seedSolve(world, { userId: owner.id, teamId: from.id, challengeId: challenge.id, points: 120 });

    await callerFor(world, staff).users.staffUpdate({ id: owner.id, patch: { team: to.id } });
    const teams = await world.services.db.team.findMany({ where: { id: { in: [from.id, to.id] } }, select: { id: true, points: true, ownerId: true }, orderBy: { id: "asc" } });
    expect(teams).toEqual([
      { id: from.id, points: 0, ownerId: mate.id },
      { id: to.id, points: 120, ownerId: owner.id },
    ]);
    await callerFor(world, staff).users.staffUpdate({ id: owner.id, patch: { team: null } });
    expect(await world.services.db.auditLog.count({ where: { action: "unteam", extra: { equals: { user: owner.id, team: to.id } } } })).toBe(1);
  });
});
