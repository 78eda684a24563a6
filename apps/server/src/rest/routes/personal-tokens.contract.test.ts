import { createUser, type TestUser } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractServer, type TestServer } from "../../testing.ts";

let server: TestServer;
let staff: TestUser;
let player: TestUser;

beforeAll(async () => {
  ({ server, staff, player } = await createContractServer());
});
afterAll(() => server.close());

describe("personal access tokens (/auth/tokens/)", () => {
  it("creates a named, expiring token shown once, which works as the REST token and is audited", async () => {
    const created = await server.api("POST", "/auth/tokens/", { token: staff.token, body: { name: "ci sync", expires_in_days: 30 } });
    expect(created.status).toBe(201);
    const { token, id, name, expires_at, expired } = created.body.d;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect([name, expired]).toEqual(["ci sync", false]);
    const days = (new Date(expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    // Listed without the key, which is stored only as its hash.
    const list = await server.api("GET", "/auth/tokens/", { token: staff.token });
    expect(list.body.d).toContainEqual({ id, name: "ci sync", created_at: expect.any(String), expires_at, expired: false });
    expect(JSON.stringify(list.body)).not.toContain(token);
    const row = await server.world.services.db.authToken.findUnique({ where: { id }, select: { keyHash: true } });
    expect(row?.keyHash).not.toBe(token);

    // A staff write with it.
    const category = await server.api("POST", "/challenges/categories/", { token, body: { name: "via token" } });
    expect(category.status).toBe(201);
    const audit = await server.world.services.db.auditLog.findMany({ where: { userId: staff.id, action: { in: ["create_personal_token"] } } });
    expect(audit.map((a) => a.extra)).toContainEqual(expect.objectContaining({ id, name: "ci sync" }));

    // Revoking it ends it at once.
    const revoked = await server.api("DELETE", `/auth/tokens/${id}/`, { token: staff.token });
    expect(revoked.body).toEqual({ s: true, m: "", d: "" });
    const after = await server.api("GET", "/auth/tokens/", { token });
    expect([after.status, after.body.m]).toEqual([401, "authentication_failed"]);
    expect(await server.world.services.db.auditLog.count({ where: { userId: staff.id, action: "revoke_personal_token" } })).toBe(1);
  });

  it("cannot change an account's email, which a password reset would trust; a login session can", async () => {
    const made = (await server.api("POST", "/auth/tokens/", { token: staff.token, body: { name: "email", expires_in_days: 1 } })).body.d;
    const target = await createUser(server.world, { isStaff: true });
    for (const id of [staff.id, target.id]) {
      const before = await server.world.services.db.user.findUniqueOrThrow({ where: { id }, select: { email: true } });
      const refused = await server.api("PATCH", `/member/${id}/`, { token: made.token, body: { email: `taken-${id}@example.test` } });
      expect([refused.status, refused.body.m]).toEqual([403, "permission_denied"]);
      const after = await server.world.services.db.user.findUniqueOrThrow({ where: { id }, select: { email: true } });
      expect(after.email).toBe(before.email);
    }
    // Other staff edits still work with the token, and the email with a session.
    expect((await server.api("PATCH", `/member/${target.id}/`, { token: made.token, body: { bio: "edited by a script" } })).status).toBe(200);
    const bySession = await server.api("PATCH", `/member/${target.id}/`, { token: staff.token, body: { email: `moved-${target.id}@example.test` } });
    expect(bySession.status).toBe(200);
  });

  it("survives logout, refuses expired tokens and tokens of an account that lost staff", async () => {
    const other = await createUser(server.world, { isStaff: true });
    const made = (await server.api("POST", "/auth/tokens/", { token: other.token, body: { name: "script", expires_in_days: 1 } })).body.d;
    await server.api("POST", "/auth/logout/", { token: other.token });
    expect((await server.api("GET", "/auth/tokens/", { token: made.token })).status).toBe(200);

    // A token cannot make another one (a leaked key must not outlive its own expiry).
    const chained = await server.api("POST", "/auth/tokens/", { token: made.token, body: { name: "more", expires_in_days: 365 } });
    expect([chained.status, chained.body.m]).toEqual([403, "permission_denied"]);

    await server.world.services.db.authToken.update({ where: { id: made.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "drops the actor cache" } });
    expect((await server.api("GET", "/auth/tokens/", { token: made.token })).status).toBe(401);

    const third = await createUser(server.world, { isStaff: true });
    const live = (await server.api("POST", "/auth/tokens/", { token: third.token, body: { name: "x", expires_in_days: 5 } })).body.d;
    await server.world.services.db.user.update({ where: { id: third.id }, data: { isStaff: false } });
    await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "drops the actor cache again" } });
    expect((await server.api("GET", "/auth/tokens/", { token: live.token })).body.m).toBe("authentication_failed");
  });

  it("is staff only, validates its input, and never revokes another account's token", async () => {
    expect((await server.api("GET", "/auth/tokens/", { token: player.token })).status).toBe(403);
    expect((await server.api("POST", "/auth/tokens/", { token: player.token, body: { name: "x", expires_in_days: 1 } })).status).toBe(403);
    const blank = await server.api("POST", "/auth/tokens/", { token: staff.token, body: { name: " ", expires_in_days: 1 } });
    expect([blank.status, Object.keys(blank.body.d)]).toEqual([400, ["name"]]);
    const long = await server.api("POST", "/auth/tokens/", { token: staff.token, body: { name: "x", expires_in_days: 366 } });
    expect([long.status, long.body.m]).toEqual([400, "max_value"]);
    const missing = await server.api("POST", "/auth/tokens/", { token: staff.token, body: { name: "x" } });
    expect([missing.status, missing.body.m]).toEqual([400, "required"]);

    const other = await createUser(server.world, { isStaff: true });
    const theirs = (await server.api("POST", "/auth/tokens/", { token: other.token, body: { name: "theirs", expires_in_days: 1 } })).body.d;
    expect((await server.api("DELETE", `/auth/tokens/${theirs.id}/`, { token: staff.token })).status).toBe(404);
    expect((await server.api("DELETE", "/auth/tokens/abc/", { token: staff.token })).status).toBe(404);
    expect((await server.api("GET", "/auth/tokens/", { token: theirs.token })).status).toBe(200);
  });
});
