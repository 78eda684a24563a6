import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff, player } = await useContractServer();

describe("/pages/", () => {
  it("lets staff create a page (201, audited) that anyone can list, its url exactly as given", async () => {
    // RACTF's client routes to page.url as is: `/rules` must come back as `/rules`.
    const res = await server.api("POST", "/pages/", { token: staff.token, body: { url: "/conduct", title: "Code of Conduct", content: "Be **kind**." } });
    expect(res.status).toBe(201);
    expect(res.body.d).toEqual({ id: expect.any(Number), url: "/conduct", title: "Code of Conduct", content: "Be **kind**.", inNav: false });
    expect((await server.api("GET", "/pages/")).body.d).toContainEqual(res.body.d);
    expect(await server.world.services.db.auditLog.count({ where: { action: "create_page" } })).toBe(1);
  });

  it("refuses admin URLs with 400 invalid", async () => {
    const res = await server.api("POST", "/pages/", { token: staff.token, body: { url: "/admin/config", title: "x", content: "y" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ s: false, m: "invalid", d: { url: ["Overwriting admin pages is forbidden."] } });
  });

  it("refuses a URL already taken, with or without its slashes, with 400 unique", async () => {
    expect((await server.api("POST", "/pages/", { token: staff.token, body: { url: "/conduct", title: "Again", content: "z" } })).body.m).toBe("unique");
    const res = await server.api("POST", "/pages/", { token: staff.token, body: { url: "conduct/", title: "Again", content: "z" } });
    expect(res.status).toBe(400);
    expect(res.body.m).toBe("unique");
  });

  it("requires url, title and content", async () => {
    const res = await server.api("POST", "/pages/", { token: staff.token, body: { url: "privacy" } });
    expect(res.status).toBe(400);
    expect(res.body.m).toBe("required");
    expect(Object.keys(res.body.d).sort()).toEqual(["content", "title"]);
  });

  it("lets staff edit and delete a page; 404 for an unknown one", async () => {
    const created = await server.api("POST", "/pages/", { token: staff.token, body: { url: "privacy", title: "Privacy", content: "Old" } });
    const id = created.body.d.id;
    const patched = await server.api("PATCH", `/pages/${id}/`, { token: staff.token, body: { content: "New" } });
    expect(patched.body.d).toMatchObject({ id, content: "New", title: "Privacy" });
    expect((await server.api("DELETE", `/pages/${id}/`, { token: staff.token })).body).toEqual({ s: true, m: "", d: "" });
    expect((await server.api("DELETE", `/pages/${id}/`, { token: staff.token })).status).toBe(404);
  });

  it("refuses writes from players", async () => {
    expect((await server.api("POST", "/pages/", { token: player.token, body: { url: "x", title: "x", content: "x" } })).status).toBe(403);
    expect((await server.api("POST", "/pages/", { body: { url: "x", title: "x", content: "x" } })).status).toBe(401);
  });
});
