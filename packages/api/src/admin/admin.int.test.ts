import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { seedChallenge, seedSolve, seedTeam } from "../teams/test-factories.ts";

let world: TestWorld;
let staff: TestUser;
let player: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true, username: "auditor-staff" });
  player = await createUser(world);
});
afterAll(() => world.close());

describe("audit log page", () => {
  it("pages newest first, filters by action and actor, and lists the actions seen", async () => {
    const other = await createUser(world, { isStaff: true, username: "second-admin" });
    await callerFor(world, staff).config.set({ key: "event_name", value: "One" });
    await callerFor(world, other).config.set({ key: "event_name", value: "Two" });
    await callerFor(world, staff).announcements.create({ title: "Hello", body: "World" });

    const caller = callerFor(world, staff);
    const first = await caller.admin.auditLogPage({ limit: 2 });
    expect(first.count).toBe(3);
    expect(first.results.map((e) => e.action)).toEqual(["create_announcement", "set_config"]);
    expect(first.results[1]?.username).toBe("second-admin");
    const second = await caller.admin.auditLogPage({ limit: 2, cursor: 2 });
    expect(second.results.map((e) => e.username)).toEqual(["auditor-staff"]);
    expect(first.actions).toEqual(["create_announcement", "set_config"]);

    const bySet = await caller.admin.auditLogPage({ action: "set_config" });
    expect(bySet.count).toBe(2);
    const byActor = await caller.admin.auditLogPage({ actor: "SECOND" });
    expect(byActor.results.map((e) => e.extra)).toEqual([{ key: "event_name", old_value: "One", new_value: "Two" }]);
    const both = await caller.admin.auditLogPage({ action: "create_announcement", actor: "second" });
    expect(both.count).toBe(0);
  });

  it("is for staff only", async () => {
    await expect(callerFor(world, player).admin.auditLogPage({})).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("names what each entry refers to by id, as it is named now; a deleted record keeps the name the entry recorded", async () => {
    const caller = callerFor(world, staff);
    const team = await seedTeam(world, { name: "Named Team" });
    const member = await createUser(world, { teamId: team.id, username: "named-member" });
    const challenge = await seedChallenge(world, { name: "Old Name" });
    await caller.challenges.update({ id: challenge.id, patch: { name: "Named Challenge", score: 321 } });
    await caller.hints.create({ challenge: challenge.id, name: "Named Hint", text: "look closer", penalty: 5 });
    await caller.moderation.giveAward({ user: member.id, points: 30, reason: "Writeup" });
    const gone = await seedChallenge(world, { name: "Gone Challenge" });
    await caller.challenges.delete({ id: gone.id });

    const page = await caller.admin.auditLogPage({ limit: 4 });
    const byAction = Object.fromEntries(page.results.map((e) => [e.action, e]));
    expect(byAction.update_challenge).toMatchObject({ names: { subject: "Named Challenge" }, extra: { id: challenge.id, fields: expect.arrayContaining(["name", "score"]) } });
    expect(byAction.create_hint).toMatchObject({ names: { subject: "Named Hint", challenge: "Named Challenge" } });
    expect(byAction.give_award).toMatchObject({ names: { team: "Named Team", user: "named-member" } });
    expect(byAction.delete_challenge).toMatchObject({ names: {}, extra: { id: gone.id, name: "Gone Challenge" } });
    // The upstream-shaped list RACTF's client reads is unchanged: no names there.
    expect((await caller.admin.auditLog({ limit: 1 }))[0]).not.toHaveProperty("names");
  });
});

describe("staff delete a member", () => {
  it("erases the account, hands a team on, and is audited", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const mate = await createUser(world, { teamId: team.id });
    await world.services.db.user.update({ where: { id: owner.id }, data: { teamId: team.id } });

    await callerFor(world, staff).users.staffDelete({ id: owner.id });
    const row = await world.services.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(row).toMatchObject({ username: `deleted-${owner.id}`, isActive: false, isVisible: false });
    expect(await world.services.db.authToken.count({ where: { userId: owner.id } })).toBe(0);
    expect((await world.services.db.team.findUniqueOrThrow({ where: { id: team.id } })).ownerId).toBe(mate.id);
    const entry = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "delete_member" }, orderBy: { id: "desc" } });
    expect(entry.extra).toEqual({ user: owner.id, username: owner.username });

    await expect(callerFor(world, staff).users.staffDelete({ id: owner.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses players, deleting oneself, and unknown ids, changing nothing", async () => {
    const target = await createUser(world);
    await expect(callerFor(world, player).users.staffDelete({ id: target.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, staff).users.staffDelete({ id: staff.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, staff).users.staffDelete({ id: 999_999 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await world.services.db.user.findUniqueOrThrow({ where: { id: target.id } })).isActive).toBe(true);
  });
});

describe("advanced member search", () => {
  it("filters by account flags for staff, and ignores the filters for players", async () => {
    const tag = `adv${Date.now() % 100_000}`;
    const active = await createUser(world, { username: `${tag}-active` });
    const hidden = await createUser(world, { username: `${tag}-hidden`, isVisible: false });
    const admin = await createUser(world, { username: `${tag}-admin`, isStaff: true });
    await world.services.db.user.update({ where: { id: hidden.id }, data: { isActive: false } });
    const staffCaller = callerFor(world, staff);
    const names = async (input: Parameters<typeof staffCaller.users.list>[0]) => (await staffCaller.users.list({ search: tag, ...input })).results.map((u) => u.username);

    expect(await names({ is_staff: true })).toEqual([admin.username]);
    expect(await names({ is_active: false })).toEqual([hidden.username]);
    expect(await names({ is_visible: true, is_staff: false })).toEqual([active.username]);
    expect(await names({ has_team: true })).toEqual([]);
    // A player may leave staff out (hiding them reveals nothing), but no other filter applies.
    const asPlayer = await callerFor(world, player).users.list({ search: tag, is_staff: false, is_visible: false });
    expect(asPlayer.results.map((u) => u.username)).toEqual([active.username]);
  });
});

describe("staff delete a team", () => {
  it("deletes a team that has not scored, leaving its members teamless, audited", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const mate = await createUser(world, { teamId: team.id });
    await callerFor(world, staff).teams.staffDelete({ id: team.id });
    expect(await world.services.db.team.count({ where: { id: team.id } })).toBe(0);
    const users = await world.services.db.user.findMany({ where: { id: { in: [owner.id, mate.id] } }, select: { teamId: true } });
    expect(users).toEqual([{ teamId: null }, { teamId: null }]);
    const entry = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "delete_team" }, orderBy: { id: "desc" } });
    expect(entry.extra).toEqual({ team: team.id, name: team.name, members: [owner.id, mate.id] });
  });

  it("refuses a team that has scored, players and unknown teams, changing nothing", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const challenge = await seedChallenge(world);
    await seedSolve(world, { userId: owner.id, teamId: team.id, challengeId: challenge.id });
    await expect(callerFor(world, staff).teams.staffDelete({ id: team.id })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("hide it instead") });
    await expect(callerFor(world, player).teams.staffDelete({ id: team.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, staff).teams.staffDelete({ id: 999_999 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await world.services.db.team.count({ where: { id: team.id } })).toBe(1);
  });
});
