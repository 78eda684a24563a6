import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff, player } = await useContractServer();

describe("/announcements/", () => {
  it("lets staff post one (201, event 5, audited) and lists newest first to logged-in users", async () => {
    const first = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "One", body: "First" } });
    const second = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "Two", body: "Second" } });
    expect(first.status).toBe(201);
    expect(second.body.d).toEqual({ id: expect.any(Number), title: "Two", body: "Second", timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const list = await server.api("GET", "/announcements/", { token: player.token });
    expect(list.body.d.map((a: { title: string }) => a.title)).toEqual(["Two", "One"]);
    expect(server.world.events).toContainEqual({ kind: "socket", audience: { all: true }, payload: { event_code: 5, ...second.body.d } });
    expect(await server.world.services.db.auditLog.count({ where: { action: "create_announcement" } })).toBe(2);
  });

  it("is 401 for anonymous readers", async () => {
    expect((await server.api("GET", "/announcements/")).status).toBe(401);
  });

  it("refuses a blank title and changes nothing", async () => {
    const before = await server.world.services.db.announcement.count();
    const res = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "  ", body: "x" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ m: "blank", d: { title: [expect.any(String)] } });
    expect(await server.world.services.db.announcement.count()).toBe(before);
  });

  it("is 403 for players posting and lets staff delete", async () => {
    expect((await server.api("POST", "/announcements/", { token: player.token, body: { title: "x", body: "y" } })).status).toBe(403);
    const created = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "Gone", body: "soon" } });
    const del = await server.api("DELETE", `/announcements/${created.body.d.id}/`, { token: staff.token });
    expect(del.body).toEqual({ s: true, m: "", d: "" });
    expect((await server.api("DELETE", `/announcements/${created.body.d.id}/`, { token: staff.token })).status).toBe(404);
    expect((await server.api("DELETE", `/announcements/${created.body.d.id}/`, { token: player.token })).status).toBe(403);
  });
});
