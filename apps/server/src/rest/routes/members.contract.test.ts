import { createUser, uniqueName } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff } = await useContractServer();

describe("GET /member/", () => {
  it("lets staff filter by account flags (?is_staff=, ?is_visible=...); others get the plain list", async () => {
    const prefix = uniqueName("flags");
    const admin = await createUser(server.world, { username: `${prefix}admin`, isStaff: true });
    const hidden = await createUser(server.world, { username: `${prefix}hidden`, isVisible: false });
    await createUser(server.world, { username: `${prefix}plain` });
    const staffOnly = await server.api("GET", `/member/?search=${prefix}&is_staff=true`, { token: staff.token });
    expect(staffOnly.body.d.results.map((u: { id: number }) => u.id)).toEqual([admin.id]);
    const invisible = await server.api("GET", `/member/?search=${prefix}&is_visible=false`, { token: staff.token });
    expect(invisible.body.d.results.map((u: { id: number }) => u.id)).toEqual([hidden.id]);
    const anonymous = await server.api("GET", `/member/?search=${prefix}&is_staff=true`);
    expect(anonymous.body.d.count).toBe(2);
  });
  it("pages members by username with public fields; staff also see email and search by it", async () => {
    const prefix = uniqueName("mem");
    const zed = await createUser(server.world, { username: `${prefix}zed` });
    const amy = await createUser(server.world, { username: `${prefix}amy` });
    await createUser(server.world, { username: `${prefix}ghost`, isVisible: false });

    const res = await server.api("GET", `/member/?search=${prefix}&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.d).toMatchObject({ count: 2, total: 2, previous: null });
    expect(res.body.d.next).toContain("offset=1");
    expect(res.body.d.results).toEqual([expect.objectContaining({ id: amy.id, username: amy.username, team: null, team_name: null, leaderboard_points: 0 })]);
    expect(res.body.d.results[0]).not.toHaveProperty("email");
    const second = await server.api("GET", `/member/?search=${prefix}&limit=1&offset=1`);
    expect(second.body.d.results[0].id).toBe(zed.id);

    const asStaff = await server.api("GET", `/member/?search=${prefix}`, { token: staff.token });
    expect(asStaff.body.d.count).toBe(3);
    expect(asStaff.body.d.results[0].email).toBe(amy.email);
    expect((await server.api("GET", `/member/?search=${encodeURIComponent(zed.email)}`, { token: staff.token })).body.d.count).toBe(1);

    const desc = await server.api("GET", `/member/?search=${prefix}&ordering=-username`);
    expect(desc.body.d.results.map((m: { id: number }) => m.id)).toEqual([zed.id, amy.id]);
  });
});

describe("GET and PATCH /member/{id}/", () => {
  it("shows a member's public profile; invisible members are 404 to non-staff", async () => {
    const user = await createUser(server.world);
    const res = await server.api("GET", `/member/${user.id}/`);
    expect(res.status).toBe(200);
    expect(res.body.d).toMatchObject({ id: user.id, username: user.username, is_staff: false, is_verified: false, state_actor: false, bio: "", solves: [], incorrect_solves: 0, points: 0 });
    expect(typeof res.body.d.date_joined).toBe("string");
    expect(res.body.d).not.toHaveProperty("email");
    expect((await server.api("GET", `/member/${user.id}`, { token: staff.token })).body.d.email).toBe(user.email);

    const hidden = await createUser(server.world, { isVisible: false });
    expect(await server.api("GET", `/member/${hidden.id}/`, { token: user.token })).toMatchObject({ status: 404, body: { s: false, m: "not_found", d: "" } });
    expect((await server.api("GET", `/member/${hidden.id}/`, { token: staff.token })).status).toBe(200);
  });

  it("lets staff edit any field, audited; others get 403 and 401", async () => {
    const user = await createUser(server.world);
    expect((await server.api("PATCH", `/member/${user.id}/`, { token: user.token, body: { is_staff: true } })).status).toBe(403);
    expect((await server.api("PATCH", `/member/${user.id}/`, { body: { is_staff: true } })).status).toBe(401);

    const email = `${uniqueName("new")}@example.test`;
    const res = await server.api("PATCH", `/member/${user.id}/`, { token: staff.token, body: { is_verified: true, state_actor: true, email, reddit: "u_x" } });
    expect(res).toMatchObject({ status: 200, body: { s: true, d: { id: user.id, is_verified: true, state_actor: true, email, reddit: "u_x" } } });
    expect(await server.world.services.db.auditLog.count({ where: { action: "edit_member", userId: staff.id } })).toBe(1);

    const bad = await server.api("PATCH", `/member/${user.id}/`, { token: staff.token, body: { username: staff.username } });
    expect(bad).toMatchObject({ status: 400, body: { m: "unique", d: { username: ["That username is already taken."] } } });
    const long = await server.api("PATCH", `/member/${user.id}/`, { token: staff.token, body: { bio: "b".repeat(401) } });
    expect(long).toMatchObject({ status: 400, body: { m: "max_length" } });
    expect((await server.api("PATCH", "/member/999999/", { token: staff.token, body: { bio: "x" } })).status).toBe(404);
  });

  it("moves a member to a team as staff", async () => {
    const user = await createUser(server.world);
    const team = await server.world.services.db.team.create({ data: { name: uniqueName("Dest"), password: "x".repeat(8) } });
    const res = await server.api("PATCH", `/member/${user.id}/`, { token: staff.token, body: { team: team.id } });
    expect(res.body.d).toMatchObject({ team: team.id, team_name: team.name });
    expect((await server.api("GET", `/team/${team.id}/`)).body.d).toMatchObject({ owner: user.id, members: [{ id: user.id, username: user.username }] });
  });
});
