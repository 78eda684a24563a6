import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff, player } = await useContractServer();

describe("GET /admin/audit_log/", () => {
  it("lists staff writes newest first", async () => {
    await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "Audited CTF" } });
    await server.api("POST", "/announcements/", { token: staff.token, body: { title: "Hi", body: "There" } });
    const res = await server.api("GET", "/admin/audit_log/", { token: staff.token });
    expect(res.status).toBe(200);
    // Upstream's names, which RACTF's client draws: a created announcement is a created model.
    expect(res.body.d.map((e: { action: string }) => e.action).slice(0, 2)).toEqual(["create_model", "set_config"]);
    expect(res.body.d[0].extra).toEqual({ model_name: "Announcement", model_id: expect.any(Number), model_fields: { id: expect.any(Number), title: "Hi" } });
    expect(res.body.d[1]).toEqual({
      id: expect.any(Number),
      action: "set_config",
      user: staff.id,
      username: staff.username,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      extra: { key: "event_name", old_value: "Flagship CTF", new_value: "Audited CTF" },
    });
  });
  it("filters by ?action= and ?actor= (username, any case)", async () => {
    const res = await server.api("GET", `/admin/audit_log/?action=set_config&actor=${staff.username.toUpperCase()}`, { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body.d.length).toBeGreaterThan(0);
    expect(res.body.d.every((e: { action: string; username: string }) => e.action === "set_config" && e.username === staff.username)).toBe(true);
    const none = await server.api("GET", "/admin/audit_log/?action=no_such_action", { token: staff.token });
    expect(none.body.d).toEqual([]);
  });
  it("is staff only", async () => {
    expect((await server.api("GET", "/admin/audit_log/", { token: player.token })).status).toBe(403);
    expect((await server.api("GET", "/admin/audit_log/")).status).toBe(401);
  });
});

describe("GET /admin/self_check/", () => {
  it("reports each challenge's problems", async () => {
    const { db } = server.world.services;
    const category = await db.category.create({ data: { name: "Checks" } });
    const good = await db.challenge.create({ data: { categoryId: category.id, name: "Good", score: 100, flagType: "plaintext", flagMetadata: { flag: "flag{ok}" } } });
    const pointless = await db.challenge.create({ data: { categoryId: category.id, name: "Pointless", score: 0, flagType: "plaintext", flagMetadata: { flag: "flag{ok}" } } });
    const badHash = await db.challenge.create({ data: { categoryId: category.id, name: "Bad hash", score: 50, flagType: "hashed", flagMetadata: { flag: "nothex" } } });
    const res = await server.api("GET", "/admin/self_check/", { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body.d.some((e: { challenge: number }) => e.challenge === good.id)).toBe(false);
    expect(res.body.d).toContainEqual({ challenge: pointless.id, issue: "missing_points", extra: "" });
    expect(res.body.d).toContainEqual({ challenge: badHash.id, issue: "invalid_flag_data", extra: expect.any(String) });
    expect((await server.api("GET", "/admin/self_check/", { token: player.token })).status).toBe(403);
  });
});
