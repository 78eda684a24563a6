import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordSolve, seedChallenges } from "../leaderboard/test-factories.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

const appCode = (code: string) => ({ cause: { code } });

async function as(user: TestUser) {
  const row = await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { teamId: true } });
  return callerFor(world, { actor: { ...user.actor, teamId: row.teamId } });
}

describe("leaderboard groups over tRPC", () => {
  it("staff create, edit and delete groups, audited; players may only list them", async () => {
    const player = await createUser(world);
    await expect((await as(player)).teams.groups.create({ name: "Nope" })).rejects.toMatchObject(appCode("permission_denied"));
    const group = await (await as(staff)).teams.groups.create({ name: "Open", description: "Anyone" });
    expect(group).toEqual({ id: expect.any(Number), name: "Open", description: "Anyone", is_self_assignable: true, has_own_leaderboard: true });
    const edited = await (await as(staff)).teams.groups.update({ id: group.id, patch: { is_self_assignable: false } });
    expect(edited.is_self_assignable).toBe(false);
    expect((await callerFor(world, null).teams.groups.list()).results).toContainEqual(edited);
    await (await as(staff)).teams.groups.delete({ id: group.id });
    await expect((await as(staff)).teams.groups.delete({ id: group.id })).rejects.toMatchObject(appCode("not_found"));
    const actions = await world.services.db.auditLog.findMany({ where: { extra: { path: ["id"], equals: group.id } }, select: { action: true }, orderBy: { id: "asc" } });
    expect(actions.map((a) => a.action)).toEqual(["create_leaderboard_group", "edit_leaderboard_group", "delete_leaderboard_group"]);
  });

  it("a team joins a self-assignable group when created; staff move it; boards and the graph filter by group", async () => {
    const students = await (await as(staff)).teams.groups.create({ name: uniqueName("Students") });
    const closed = await (await as(staff)).teams.groups.create({ name: uniqueName("Closed"), is_self_assignable: false });
    const pupil = await createUser(world);
    await expect((await as(pupil)).teams.create({ name: uniqueName("T"), password: "secret-123", leaderboard_group: closed.id })).rejects.toMatchObject(appCode("invalid"));
    const team = await (await as(pupil)).teams.create({ name: uniqueName("T"), password: "secret-123", leaderboard_group: students.id });
    expect(team.leaderboard_group).toBe(students.id);
    const other = await createUser(world);
    const otherTeam = await (await as(other)).teams.create({ name: uniqueName("O"), password: "secret-123" });

    const [challenge] = await seedChallenges(world, [200]);
    await recordSolve(world, { userId: pupil.id, teamId: team.id, challenge: challenge!, at: new Date("2026-02-01T09:00:00Z") });
    await recordSolve(world, { userId: other.id, teamId: otherTeam.id, challenge: challenge!, at: new Date("2026-02-01T08:00:00Z") });

    const board = await callerFor(world, null).leaderboard.teams({ limit: 10, offset: 0, group: students.id });
    expect("hidden" in board ? [] : board.results).toEqual([{ id: team.id, name: team.name, leaderboard_points: 200, leaderboard_group_name: students.name }]);
    const graph = await callerFor(world, null).leaderboard.graph({ group: students.id });
    expect("hidden" in graph ? [] : graph.team?.map((p) => p.team_id)).toEqual([team.id]);

    // Staff move the team to the closed group: it leaves the Students board at once.
    const moved = await (await as(staff)).teams.staffUpdate({ id: team.id, patch: { leaderboard_group: closed.id } });
    expect(moved.leaderboard_group).toBe(closed.id);
    const after = await callerFor(world, null).leaderboard.teams({ limit: 10, offset: 0, group: students.id });
    expect("hidden" in after ? null : after.count).toBe(0);
  });
});
