import { createUser, recordSolve, seedChallenges, type TestUser, uniqueName } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff, player } = await useContractServer();
let students: { id: number; name: string };
let staffOnly: { id: number; name: string };

async function createTeam(user: TestUser, leaderboard_group?: unknown) {
  return server.api("POST", "/team/create/", {
    token: user.token,
    body: { name: uniqueName("Team"), password: "team-secret-1", ...(leaderboard_group !== undefined && { leaderboard_group }) },
  });
}

describe("/team/groups/ (leaderboard groups)", () => {
  it("lets staff create groups (201, audited); players get 403, anonymous 401", async () => {
    const body = { name: "Students", description: "Enrolled at a school", is_self_assignable: true, has_own_leaderboard: true };
    expect((await server.api("POST", "/team/groups/", { token: player.token, body })).status).toBe(403);
    expect((await server.api("POST", "/team/groups/", { body })).status).toBe(401);
    const res = await server.api("POST", "/team/groups/", { token: staff.token, body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ s: true, m: "", d: { id: expect.any(Number), ...body } });
    students = res.body.d;
    // RACTF's admin screens send the checkboxes' values as strings.
    const other = await server.api("POST", "/team/groups/", { token: staff.token, body: { name: "Sponsors", is_self_assignable: "false", has_own_leaderboard: "false" } });
    expect(other.body.d).toEqual({ id: expect.any(Number), name: "Sponsors", description: "", is_self_assignable: false, has_own_leaderboard: false });
    staffOnly = other.body.d;
    expect(await server.world.services.db.auditLog.count({ where: { action: "create_leaderboard_group" } })).toBe(2);
  });

  it("refuses a blank or taken name", async () => {
    const blank = await server.api("POST", "/team/groups/", { token: staff.token, body: { name: " " } });
    expect(blank.status).toBe(400);
    expect(blank.body.m).toBe("blank");
    const taken = await server.api("POST", "/team/groups/", { token: staff.token, body: { name: "students" } });
    expect(taken.body).toEqual({ s: false, m: "unique", d: { name: ["A group with that name already exists."] } });
  });

  it("lists the groups to anyone, paged, with the fields RACTF's client reads", async () => {
    const res = await server.api("GET", "/team/groups/");
    expect(res.status).toBe(200);
    expect(res.body.d).toMatchObject({ count: 2, next: null, previous: null, results: [students, staffOnly] });
    const paged = await server.api("GET", "/team/groups/?limit=1");
    expect(paged.body.d.results).toEqual([students]);
    expect(paged.body.d.next).toContain("offset=1");
  });

  it("lets a team pick a self-assignable group when it is created, and no other", async () => {
    const picker = await createUser(server.world);
    expect((await createTeam(picker, staffOnly.id)).body).toEqual({ s: false, m: "invalid", d: { leaderboard_group: ["Choose one of the groups offered."] } });
    expect((await createTeam(picker, 999_999)).body).toEqual({ s: false, m: "invalid", d: { leaderboard_group: ["There is no such group."] } });
    expect((await createTeam(picker, "abc")).body.m).toBe("invalid");
    // Nothing was created by the refusals.
    expect((await server.api("GET", "/team/self/", { token: picker.token })).status).toBe(404);
    const created = await createTeam(picker, String(students.id));
    expect(created.status).toBe(201);
    expect(created.body.d.leaderboard_group).toBe(students.id);
    const none = await createTeam(await createUser(server.world));
    expect(none.body.d.leaderboard_group).toBeNull();
  });

  it("lets staff move a team to any group, or out of one (audited); the owner cannot", async () => {
    const owner = await createUser(server.world);
    const team = (await createTeam(owner)).body.d;
    const own = await server.api("PATCH", "/team/self/", { token: owner.token, body: { leaderboard_group: staffOnly.id } });
    expect((await server.api("GET", `/team/${team.id}/`)).body.d.leaderboard_group).toBeNull();
    expect(own.status).toBe(200);
    const moved = await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { leaderboard_group: staffOnly.id } });
    expect(moved.body.d.leaderboard_group).toBe(staffOnly.id);
    expect((await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { leaderboard_group: 999_999 } })).body.m).toBe("invalid");
    const out = await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { leaderboard_group: null } });
    expect(out.body.d.leaderboard_group).toBeNull();
    const audits = await server.world.services.db.auditLog.findMany({ where: { action: "edit_team" }, select: { extra: true } });
    expect(audits.map((a) => a.extra)).toContainEqual({ team: team.id, changes: { leaderboard_group: { old: null, new: staffOnly.id } } });
  });

  it("filters the team board, the graph and the CTFtime feed by ?group=", async () => {
    const [challenge] = await seedChallenges(server.world, [300]);
    const studentOwner = await createUser(server.world);
    const student = (await createTeam(studentOwner, students.id)).body.d;
    const openOwner = await createUser(server.world);
    const open = (await createTeam(openOwner)).body.d;
    await recordSolve(server.world, { userId: openOwner.id, teamId: open.id, challenge: challenge!, at: new Date("2026-01-01T10:00:00Z") });
    await recordSolve(server.world, { userId: studentOwner.id, teamId: student.id, challenge: challenge!, at: new Date("2026-01-01T11:00:00Z") });

    const all = await server.api("GET", "/leaderboard/team/");
    expect(all.body.d.results.slice(0, 2)).toEqual([
      { id: open.id, name: open.name, leaderboard_points: 300, leaderboard_group_name: null },
      { id: student.id, name: student.name, leaderboard_points: 300, leaderboard_group_name: "Students" },
    ]);
    const board = await server.api("GET", `/leaderboard/team/?group=${students.id}`);
    // The team created in Students earlier (no points) is in it too; the open team is not.
    expect(board.body.d).toMatchObject({ count: 2, results: [{ id: student.id, leaderboard_group_name: "Students" }, { leaderboard_points: 0, leaderboard_group_name: "Students" }] });

    const graph = await server.api("GET", `/leaderboard/graph/?group=${students.id}`);
    expect(graph.body.d.team).toEqual([{ points: 300, timestamp: "2026-01-01T11:00:00.000Z", team_name: student.name, leaderboard_group_name: "Students" }]);
    expect(graph.body.d.user).toEqual([{ points: 300, timestamp: "2026-01-01T11:00:00.000Z", user_name: studentOwner.username }]);
    expect((await server.api("GET", "/leaderboard/graph/")).body.d.team).toHaveLength(2);

    const feed = await server.app.inject({ method: "GET", url: `/api/v2/leaderboard/ctftime/?group=${students.id}` });
    expect(feed.json().standings).toEqual([expect.objectContaining({ pos: 1, team: student.name, score: 300 }), expect.objectContaining({ pos: 2, score: 0 })]);
    expect((await server.api("GET", "/leaderboard/team/?group=abc")).status).toBe(400);
  });

  it("lets staff edit and delete a group; its teams carry on without one", async () => {
    const renamed = await server.api("PATCH", `/team/groups/${students.id}/`, { token: staff.token, body: { name: "Schools", has_own_leaderboard: "false" } });
    expect(renamed.body.d).toMatchObject({ id: students.id, name: "Schools", has_own_leaderboard: false, is_self_assignable: true });
    expect((await server.api("GET", "/leaderboard/team/")).body.d.results.map((r: { leaderboard_group_name: string | null }) => r.leaderboard_group_name)).toContain("Schools");
    expect((await server.api("PATCH", `/team/groups/${students.id}/`, { token: player.token, body: { name: "x" } })).status).toBe(403);
    expect((await server.api("DELETE", `/team/groups/${students.id}/`, { token: staff.token })).body).toEqual({ s: true, m: "", d: "" });
    expect((await server.api("DELETE", `/team/groups/${students.id}/`, { token: staff.token })).status).toBe(404);
    expect(await server.world.services.db.team.count({ where: { leaderboardGroupId: students.id } })).toBe(0);
    expect((await server.api("GET", "/leaderboard/team/")).body.d.results.map((r: { leaderboard_group_name: string | null }) => r.leaderboard_group_name)).not.toContain("Schools");
    expect(await server.world.services.db.auditLog.count({ where: { action: { in: ["edit_leaderboard_group", "delete_leaderboard_group"] } } })).toBe(2);
  });
});
