import { createUser, TEST_PASSWORD, type TestUser } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

/**
 * Impersonation and the staff tokens behind it, through the REST paths: no token may outlive the
 * session or the staff rights it came from, not even for one request served from a cache.
 */
const { server, staff, player } = await useContractServer();
const { db } = server.world.services;

const self = (token: string) => server.api("GET", "/member/self/", { token });
const sudo = async (token: string, id = player.id) => (await server.api("POST", "/auth/sudo/", { token, body: { id } })).body.d.token as string;
const personalToken = async (owner: TestUser) =>
  (await server.api("POST", "/auth/tokens/", { token: owner.token, body: { name: "script", expires_in_days: 365 } })).body.d.token as string;
const trpc = (path: string, token: string, input: unknown) =>
  server.app.inject({ method: "POST", url: `/trpc/${path}`, headers: { authorization: `Token ${token}`, "content-type": "application/json" }, payload: { json: input } });

describe("a personal access token cannot start an impersonation", () => {
  it("is refused by POST /auth/sudo/ and by tRPC's auth.sudo, nothing made or audited", async () => {
    const lead = await createUser(server.world, { isStaff: true });
    const key = await personalToken(lead);
    const tokens = await db.authToken.count();
    const audits = await db.auditLog.count({ where: { action: "sudo" } });

    const rest = await server.api("POST", "/auth/sudo/", { token: key, body: { id: player.id } });
    expect([rest.status, rest.body]).toEqual([403, { s: false, m: "permission_denied", d: "" }]);
    const viaTrpc = await trpc("auth.sudo", key, { id: player.id });
    expect(viaTrpc.statusCode).toBe(403);
    expect(viaTrpc.json()).toMatchObject({ error: { json: { data: { appCode: "permission_denied" } } } });

    expect(await db.authToken.count()).toBe(tokens);
    expect(await db.auditLog.count({ where: { action: "sudo" } })).toBe(audits);
    // The key itself still works for what it is for.
    expect((await self(key)).status).toBe(200);
  });
});

describe("an impersonation ends with its staff member's session and rights", () => {
  it("stops at once when the staff member logs out, though its actor was cached", async () => {
    const lead = await createUser(server.world, { isStaff: true });
    const token = await sudo(lead.token);
    expect((await self(token)).body.d.id).toBe(player.id);
    expect((await server.api("POST", "/auth/logout/", { token: lead.token })).status).toBe(200);
    const after = await self(token);
    expect([after.status, after.body.m]).toEqual([401, "authentication_failed"]);
    // Nor can it be turned back into a staff session.
    expect((await server.api("POST", "/auth/desudo/", { token })).status).toBe(401);
    expect((await self(player.token)).body.d.id).toBe(player.id);
  });

  it("stops when the staff member is demoted (PATCH /member/{id}/), with their personal tokens; promoting them again revives neither", async () => {
    const lead = await createUser(server.world, { isStaff: true });
    const token = await sudo(lead.token);
    const key = await personalToken(lead);
    expect((await self(token)).status).toBe(200);
    expect((await self(key)).status).toBe(200);

    const demoted = await server.api("PATCH", `/member/${lead.id}/`, { token: staff.token, body: { is_staff: false } });
    expect([demoted.status, demoted.body.d.is_staff]).toEqual([200, false]);
    expect((await self(token)).status).toBe(401);
    expect((await self(key)).status).toBe(401);

    expect((await server.api("PATCH", `/member/${lead.id}/`, { token: staff.token, body: { is_staff: true } })).status).toBe(200);
    expect((await self(token)).status).toBe(401);
    expect((await self(key)).status).toBe(401);
    // Their login session is theirs to keep, as staff again.
    expect((await self(lead.token)).body.d).toMatchObject({ id: lead.id, is_staff: true });
    const audit = await db.auditLog.findMany({ where: { action: "edit_member", userId: staff.id }, orderBy: { id: "asc" }, select: { extra: true } });
    expect(audit.slice(-2).map((a) => a.extra)).toEqual([
      { user: lead.id, fields: ["is_staff"], changes: { is_staff: { old: true, new: false } } },
      { user: lead.id, fields: ["is_staff"], changes: { is_staff: { old: false, new: true } } },
    ]);
  });

  it("stops when the staff member is demoted through tRPC's users.staffUpdate, their personal tokens too", async () => {
    const lead = await createUser(server.world, { isStaff: true });
    const token = await sudo(lead.token);
    const key = await personalToken(lead);
    expect((await self(key)).status).toBe(200);
    expect((await trpc("users.staffUpdate", staff.token, { id: lead.id, patch: { is_staff: false } })).statusCode).toBe(200);
    expect((await trpc("users.staffUpdate", staff.token, { id: lead.id, patch: { is_staff: true } })).statusCode).toBe(200);
    expect((await self(token)).status).toBe(401);
    expect((await self(key)).status).toBe(401);
  });

  it("stops when the staff member is deactivated; reactivating them revives none of their tokens", async () => {
    const lead = await createUser(server.world, { isStaff: true });
    const token = await sudo(lead.token);
    expect((await self(token)).status).toBe(200);
    expect((await server.api("PATCH", `/member/${lead.id}/`, { token: staff.token, body: { is_active: false } })).status).toBe(200);
    expect((await self(token)).status).toBe(401);
    expect((await server.api("PATCH", `/member/${lead.id}/`, { token: staff.token, body: { is_active: true } })).status).toBe(200);
    expect((await self(token)).status).toBe(401);
    expect((await self(lead.token)).status).toBe(401);
    // They sign in again like anyone else.
    const login = await server.api("POST", "/auth/login/", { body: { username: lead.username, password: TEST_PASSWORD } });
    expect((await self(login.body.d.token)).body.d.id).toBe(lead.id);
  });
});

describe("ending an impersonation (/auth/desudo/)", () => {
  it("answers POST exactly as RACTF's client sends it: no body, a JSON content type, the path without its slash", async () => {
    const token = await sudo(staff.token);
    const res = await server.app.inject({
      method: "POST",
      url: "/api/v2/auth/desudo",
      headers: { authorization: `Token ${token}`, "content-type": "application/json;charset=UTF-8" },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ s: true, m: "", d: { token: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect((await self(body.d.token)).body.d.id).toBe(staff.id);
    expect((await self(token)).status).toBe(401);
  });

  it("still answers GET, and 403 outside an impersonation on either method", async () => {
    const token = await sudo(staff.token);
    const back = await server.api("GET", "/auth/desudo/", { token });
    expect((await self(back.body.d.token)).body.d.id).toBe(staff.id);
    for (const method of ["GET", "POST"] as const) {
      const res = await server.api(method, "/auth/desudo/", { token: staff.token });
      expect([res.status, res.body.m]).toEqual([403, "not_impersonating"]);
    }
  });
});
