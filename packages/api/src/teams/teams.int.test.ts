import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { seedCategory, seedChallenge, seedIncorrectAttempt, seedSolve, seedTeam } from "./test-factories.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

/** A caller as `user` with their team and staff flag as the database has them now, as a request would resolve them. */
async function as(user: TestUser | null) {
  if (!user) return callerFor(world, null);
  const row = await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { teamId: true, isStaff: true } });
  return callerFor(world, { actor: { ...user.actor, teamId: row.teamId, isStaff: row.isStaff } });
}

async function setConfig(key: string, value: unknown) {
  await (await as(staff)).config.set({ key, value });
}

async function teamOf(user: TestUser) {
  return (await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { teamId: true } })).teamId;
}

const appCode = (code: string) => ({ cause: { code } });

describe("create", () => {
  it("creates a team owned by the caller, who joins it and sees its secret", async () => {
    const owner = await createUser(world);
    const name = uniqueName("Red");
    const team = await (await as(owner)).teams.create({ name: `  ${name} `, password: "s3cret-password" });
    expect(team).toMatchObject({ name, owner: owner.id, password: "s3cret-password", members: [{ id: owner.id, username: owner.username }], points: 0 });
    expect(await teamOf(owner)).toBe(team.id);
  });

  it("moves the creator's websocket into the new team and refreshes the boards", async () => {
    const owner = await createUser(world);
    const seen = world.events.length;
    const team = await (await as(owner)).teams.create({ name: uniqueName("Events"), password: "12345678" });
    expect(world.events.slice(seen)).toEqual(
      expect.arrayContaining([
        { kind: "internal", name: "membership_changed", data: { userId: owner.id, teamId: team.id } },
        { kind: "internal", name: "leaderboard_changed" },
      ]),
    );
  });

  it("refuses a second team, a taken name in any case, and bad fields, changing nothing", async () => {
    const owner = await createUser(world);
    const name = uniqueName("Blue");
    const caller = await as(owner);
    await caller.teams.create({ name, password: "12345678" });
    await expect((await as(owner)).teams.create({ name: uniqueName("x"), password: "12345678" })).rejects.toMatchObject(appCode("already_in_team"));

    const other = await createUser(world);
    const before = await world.services.db.team.count();
    await expect((await as(other)).teams.create({ name: name.toUpperCase(), password: "12345678" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "unique", details: { name: ["A team with that name already exists."] } },
    });
    await expect((await as(other)).teams.create({ name: "a".repeat(37), password: "12345678" })).rejects.toMatchObject(appCode("max_length"));
    await expect((await as(other)).teams.create({ name: uniqueName("y"), password: "1234567" })).rejects.toMatchObject(appCode("min_length"));
    await expect((await as(other)).teams.create({ name: "   ", password: "12345678" })).rejects.toMatchObject(appCode("blank"));
    expect(await world.services.db.team.count()).toBe(before);
    expect(await teamOf(other)).toBeNull();
  });

  it("is permission_denied with teams off", async () => {
    await setConfig("enable_teams", false);
    try {
      const user = await createUser(world);
      await expect((await as(user)).teams.create({ name: uniqueName("z"), password: "12345678" })).rejects.toMatchObject(appCode("permission_denied"));
    } finally {
      await setConfig("enable_teams", true);
    }
  });

  it("needs a login", async () => {
    await expect(callerFor(world, null).teams.create({ name: "x", password: "12345678" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("join", () => {
  it("joins by name in any case with the secret, announcing event 4 to the team", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id, password: "the-team-secret" });
    const joiner = await createUser(world);
    const seen = world.events.length;
    const view = await (await as(joiner)).teams.join({ name: team.name.toUpperCase(), password: "the-team-secret" });
    expect(view.members.map((m) => m.id)).toEqual([owner.id, joiner.id]);
    expect(await teamOf(joiner)).toBe(team.id);
    expect(world.events.slice(seen)).toContainEqual({
      kind: "socket",
      audience: { teamId: team.id },
      payload: { event_code: 4, user: joiner.id, username: joiner.username, team: team.id, team_name: team.name },
    });
  });

  it("checks in the contract's order", async () => {
    const team = await seedTeam(world, { password: "right-secret" });
    const inTeam = await createUser(world, { teamId: team.id });
    const free = await createUser(world);

    await setConfig("enable_teams", false);
    await setConfig("enable_team_join", false);
    await expect((await as(inTeam)).teams.join({} as never)).rejects.toMatchObject(appCode("permission_denied"));
    await setConfig("enable_teams", true);
    await expect((await as(inTeam)).teams.join({} as never)).rejects.toMatchObject(appCode("join_disabled"));
    await setConfig("enable_team_join", true);
    await expect((await as(inTeam)).teams.join({} as never)).rejects.toMatchObject(appCode("already_in_team"));
    await expect((await as(free)).teams.join({ name: team.name } as never)).rejects.toMatchObject(appCode("required"));
    await expect((await as(free)).teams.join({ name: uniqueName("nobody"), password: "x" })).rejects.toMatchObject({ code: "NOT_FOUND", cause: { code: "invalid_team" } });
    await expect((await as(free)).teams.join({ name: team.name, password: "wrong-secret" })).rejects.toMatchObject(appCode("invalid_team_password"));
    expect(await teamOf(free)).toBeNull();
  });

  it("stops at team_size, staff exempt", async () => {
    const team = await seedTeam(world, { password: "small-team" });
    await createUser(world, { teamId: team.id });
    await setConfig("team_size", 2);
    try {
      await (await as(await createUser(world))).teams.join({ name: team.name, password: "small-team" });
      const late = await createUser(world);
      await expect((await as(late)).teams.join({ name: team.name, password: "small-team" })).rejects.toMatchObject(appCode("team_full"));
      expect(await teamOf(late)).toBeNull();
      const admin = await createUser(world, { isStaff: true });
      await (await as(admin)).teams.join({ name: team.name, password: "small-team" });
      expect(await world.services.db.user.count({ where: { teamId: team.id } })).toBe(3);
    } finally {
      await setConfig("team_size", 0);
    }
  });
});

describe("leave", () => {
  it("is leave_disabled by default", async () => {
    const team = await seedTeam(world);
    const member = await createUser(world, { teamId: team.id });
    await expect((await as(member)).teams.leave()).rejects.toMatchObject(appCode("leave_disabled"));
  });

  it("applies the solve and owner rules, and a lone owner takes the team with them", async () => {
    await setConfig("enable_team_leave", true);
    try {
      const owner = await createUser(world);
      const team = await seedTeam(world, { ownerId: owner.id });
      const solver = await createUser(world, { teamId: team.id });
      const quiet = await createUser(world, { teamId: team.id });
      const challenge = await seedChallenge(world);
      await seedSolve(world, { userId: solver.id, teamId: team.id, challengeId: challenge.id });

      await expect((await as(solver)).teams.leave()).rejects.toMatchObject({
        code: "FORBIDDEN",
        cause: { code: "challenge_solved", message: "You cannot leave a team after solving a challenge for them." },
      });
      await expect((await as(owner)).teams.leave()).rejects.toMatchObject(appCode("cannot_leave_team_ownerless"));
      await (await as(quiet)).teams.leave();
      expect(await teamOf(quiet)).toBeNull();

      const loner = await createUser(world);
      const own = await (await as(loner)).teams.create({ name: uniqueName("Solo"), password: "12345678" });
      expect(await (await as(loner)).teams.leave()).toEqual({ deletedTeam: true });
      expect(await world.services.db.team.count({ where: { id: own.id } })).toBe(0);
      expect(await (await as(loner)).teams.self()).toBeNull();
    } finally {
      await setConfig("enable_team_leave", false);
    }
  });
});

describe("editing a team", () => {
  it("lets the owner edit and transfer, and then no longer edit", async () => {
    const owner = await createUser(world);
    const team = await (await as(owner)).teams.create({ name: uniqueName("Edit"), password: "12345678" });
    const member = await createUser(world, { teamId: team.id });
    await expect((await as(member)).teams.updateSelf({ description: "mine now" })).rejects.toMatchObject(appCode("permission_denied"));

    const newName = uniqueName("Renamed");
    const edited = await (await as(owner)).teams.updateSelf({ name: newName, description: "We hack things.", password: "new-secret-9" });
    expect(edited).toMatchObject({ name: newName, description: "We hack things.", password: "new-secret-9" });

    const outsider = await createUser(world);
    await expect((await as(owner)).teams.updateSelf({ owner: outsider.id })).rejects.toMatchObject(appCode("invalid"));
    await expect((await as(owner)).teams.updateSelf({ password: "short" })).rejects.toMatchObject(appCode("min_length"));
    const transferred = await (await as(owner)).teams.updateSelf({ owner: member.id });
    expect(transferred.owner).toBe(member.id);
    await expect((await as(owner)).teams.updateSelf({ description: "x" })).rejects.toMatchObject(appCode("permission_denied"));
    expect((await (await as(member)).teams.self())?.owner).toBe(member.id);
  });

  it("lets staff edit any team, audited, and hides an invisible team from others", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const member = await createUser(world, { teamId: team.id });
    const player = await createUser(world);
    await expect((await as(player)).teams.staffUpdate({ id: team.id, patch: { is_visible: false } })).rejects.toMatchObject({ code: "FORBIDDEN" });

    await (await as(staff)).teams.staffUpdate({ id: team.id, patch: { is_visible: false, owner: member.id } });
    const audit = await world.services.db.auditLog.findMany({ where: { userId: staff.id }, orderBy: { id: "asc" }, select: { action: true, extra: true } });
    expect(audit.slice(-2)).toEqual([
      { action: "transfer", extra: { team: team.id, old: owner.id, new: member.id } },
      { action: "edit_team", extra: { team: team.id, changes: { owner: { old: owner.id, new: member.id }, is_visible: { old: true, new: false } } } },
    ]);

    await expect((await as(player)).teams.get({ id: team.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(callerFor(world, null).teams.get({ id: team.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await as(member)).teams.get({ id: team.id })).id).toBe(team.id);
    expect((await (await as(staff)).teams.get({ id: team.id })).password).toBe(team.password);
    const listed = await (await as(player)).teams.list({ search: team.name });
    expect(listed.results).toEqual([]);
    expect((await (await as(staff)).teams.list({ search: team.name })).results).toHaveLength(1);
  });
});

describe("reading teams", () => {
  it("shows a team without its secret, with solves and incorrect attempts", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const challenge = await seedChallenge(world, { score: 300 });
    const hidden = await seedChallenge(world, { hidden: true });
    await seedSolve(world, { userId: owner.id, teamId: team.id, challengeId: challenge.id, points: 300, penalty: 50 });
    await seedSolve(world, { userId: owner.id, teamId: team.id, challengeId: hidden.id });
    await seedIncorrectAttempt(world, { userId: owner.id, teamId: team.id, challengeId: challenge.id });

    const view = await callerFor(world, null).teams.get({ id: team.id });
    expect(view).not.toHaveProperty("password");
    expect(view.solves).toEqual([
      expect.objectContaining({ challenge: challenge.id, challenge_name: challenge.name, points: 250, solved_by: owner.id, solved_by_name: owner.username, team_name: team.name }),
    ]);
    expect(view.incorrect_solves).toBe(1);
    expect((await (await as(staff)).teams.get({ id: team.id })).solves).toHaveLength(2);
  });

  it("finds a team by name as by id, case-insensitively, hiding an invisible team from others", async () => {
    const team = await seedTeam(world, { name: uniqueName("The Bytes") });
    expect((await callerFor(world, null).teams.byName({ name: team.name.toUpperCase() })).id).toBe(team.id);
    const hidden = await seedTeam(world, { isVisible: false });
    await expect(callerFor(world, null).teams.byName({ name: hidden.name })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await as(staff)).teams.byName({ name: hidden.name })).id).toBe(hidden.id);
    await expect(callerFor(world, null).teams.byName({ name: uniqueName("nobody") })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("reads the own team and own profile exactly: fields, members, solves newest first, timestamps, first blood, wrong flags", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const mate = await createUser(world, { teamId: team.id, isVisible: false });
    const first = await seedChallenge(world, { score: 300 });
    const second = await seedChallenge(world, { score: 100 });
    const hidden = await seedChallenge(world, { hidden: true });
    const early = new Date("2026-03-01T10:00:00.123Z");
    const late = new Date("2026-03-01T11:30:00.987Z");
    const a = await seedSolve(world, { userId: owner.id, teamId: team.id, challengeId: first.id, points: 300, penalty: 50, at: early });
    const b = await seedSolve(world, { userId: mate.id, teamId: team.id, challengeId: second.id, points: 100, at: late });
    await seedSolve(world, { userId: owner.id, teamId: team.id, challengeId: hidden.id, at: late });
    await world.services.db.solve.update({ where: { id: a.id }, data: { firstBlood: true } });
    await seedIncorrectAttempt(world, { userId: owner.id, teamId: team.id, challengeId: first.id });
    await seedIncorrectAttempt(world, { userId: mate.id, teamId: team.id, challengeId: first.id });
    const row = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id } });
    const solveOf = (id: number, challenge: { id: number; name: string }, points: number, by: TestUser, at: Date, firstBlood: boolean) => ({
      id,
      team: team.id,
      challenge: challenge.id,
      challenge_name: challenge.name,
      points,
      solved_by: by.id,
      solved_by_name: by.username,
      team_name: team.name,
      first_blood: firstBlood,
      timestamp: at.toISOString(),
    });

    // A member reads the own team: hidden members too, the secret, no solves of hidden challenges.
    const own = await (await as(owner)).teams.self();
    expect(own).toEqual({
      id: team.id,
      name: team.name,
      description: "",
      owner: owner.id,
      members: [
        { id: owner.id, username: owner.username },
        { id: mate.id, username: mate.username },
      ],
      solves: [solveOf(b.id, second, 100, mate, late, false), solveOf(a.id, first, 250, owner, early, true)],
      incorrect_solves: 2,
      points: row.points,
      leaderboard_points: row.leaderboardPoints,
      is_visible: true,
      discord: "",
      discordid: "",
      twitter: "",
      reddit: "",
      date_created: row.createdAt.toISOString(),
      leaderboard_group: null,
      password: team.password,
    });
    // Another player sees neither the hidden member nor the secret.
    const outside = await callerFor(world, null).teams.get({ id: team.id });
    expect(outside.members).toEqual([{ id: owner.id, username: owner.username }]);
    expect(outside).not.toHaveProperty("password");

    // The own profile: the account, its team, its own solves only and its own wrong flags.
    const user = await world.services.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    const self = await (await as(owner)).account.self();
    expect(self).toMatchObject({
      id: owner.id,
      username: owner.username,
      email: user.email,
      is_staff: false,
      has_2fa: false,
      team: { id: team.id, name: team.name, owner: owner.id, description: "", is_visible: true },
      team_name: team.name,
      points: user.points,
      leaderboard_points: user.leaderboardPoints,
      date_joined: user.dateJoined.toISOString(),
      solves: [expect.objectContaining({ challenge: hidden.id }), solveOf(a.id, first, 250, owner, early, true)],
      incorrect_solves: 1,
    });
    const loner = await createUser(world);
    expect(await (await as(loner)).account.self()).toMatchObject({ team: null, team_name: null, solves: [], incorrect_solves: 0 });
  });

  it("lists teams by name with member counts, paged and searchable", async () => {
    const prefix = uniqueName("list");
    const names = ["Charlie", "alpha", "Bravo"].map((n) => `${prefix}-${n}`);
    for (const name of names) await seedTeam(world, { name });
    const [alpha] = await world.services.db.team.findMany({ where: { name: names[1] }, select: { id: true } });
    await createUser(world, { teamId: alpha!.id });
    const page = await callerFor(world, null).teams.list({ search: prefix, limit: 2 });
    expect(page.count).toBe(3);
    expect(page.results.map((t) => [t.name, t.members])).toEqual([
      [names[1], 1],
      [names[2], 0],
    ]);
    const rest = await callerFor(world, null).teams.list({ search: prefix, limit: 2, cursor: 2 });
    expect(rest.results.map((t) => t.name)).toEqual([names[0]]);
  });

  it("draws the stats: categories, score over time, members' shares", async () => {
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id });
    const mate = await createUser(world, { teamId: team.id });
    const web = await seedCategory(world, uniqueName("Web"));
    const a = await seedChallenge(world, { categoryId: web.id, score: 100 });
    await seedChallenge(world, { categoryId: web.id });
    const b = await seedChallenge(world, { score: 200 });
    await seedSolve(world, { userId: owner.id, teamId: team.id, challengeId: a.id, points: 100, at: new Date("2030-01-01T10:00:00Z") });
    await seedSolve(world, { userId: mate.id, teamId: team.id, challengeId: b.id, points: 200, at: new Date("2030-01-01T11:00:00Z") });
    await seedIncorrectAttempt(world, { userId: mate.id, teamId: team.id, challengeId: a.id });

    const stats = await callerFor(world, null).teams.stats({ id: team.id });
    expect(stats.correct).toBe(2);
    expect(stats.incorrect).toBe(1);
    expect(stats.categories.find((c) => c.id === web.id)).toEqual({ id: web.id, name: web.name, solved: 1, total: 2, points: 100 });
    expect(stats.score).toEqual([
      { timestamp: "2030-01-01T10:00:00.000Z", points: 100 },
      { timestamp: "2030-01-01T11:00:00.000Z", points: 300 },
    ]);
    expect(stats.members).toEqual([
      { id: mate.id, username: mate.username, points: 200 },
      { id: owner.id, username: owner.username, points: 100 },
    ]);
  });

  it("answers null for the own team of a player without one", async () => {
    expect(await (await as(await createUser(world))).teams.self()).toBeNull();
  });
});
