import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff, player } = await useContractServer();

describe("GET /config/", () => {
  it("answers every public key in the envelope", async () => {
    const res = await server.api("GET", "/config/");
    expect(res.status).toBe(200);
    expect(res.body.s).toBe(true);
    expect(res.body.m).toBe("");
    expect(res.body.d.flag_prefix).toBe("flag");
    expect(res.body.d.enable_registration).toBe(true);
    expect(res.body.d).not.toHaveProperty("firstblood_webhook");
    expect(res.body.d).not.toHaveProperty("enable_force_admin_2fa");
  });

  it("includes the sensitive keys for staff", async () => {
    const res = await server.api("GET", "/config/", { token: staff.token });
    expect(res.body.d.firstblood_webhook).toBe("");
  });
});

describe("GET /config/{key}/", () => {
  it("answers the value", async () => {
    const res = await server.api("GET", "/config/flag_prefix/");
    expect(res.body).toEqual({ s: true, m: "", d: "flag" });
  });
  it("is 403 on a staff-only key for non-staff", async () => {
    const res = await server.api("GET", "/config/firstblood_webhook/", { token: player.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ s: false, m: "permission_denied", d: "" });
  });
  it("is 404 for an unknown key", async () => {
    const res = await server.api("GET", "/config/nope/");
    expect(res.status).toBe(404);
    expect(res.body.m).toBe("not_found");
  });
});

describe("POST /config/{key}/", () => {
  it("lets a staff token change a key, seen over tRPC and audited", async () => {
    const res = await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "REST CTF" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ s: true, m: "", d: "REST CTF" });
    const trpc = await server.app.inject({ method: "GET", url: "/trpc/config.get?input=" + encodeURIComponent(JSON.stringify({ json: { key: "event_name" } })) });
    expect(trpc.json().result.data.json).toBe("REST CTF");
    const audit = await server.world.services.db.auditLog.findFirstOrThrow({ where: { action: "set_config" }, orderBy: { id: "desc" } });
    expect(audit.extra).toMatchObject({ key: "event_name", new_value: "REST CTF" });
  });
  it("accepts null to unset a time", async () => {
    await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: 2_000_000_000 } });
    const res = await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: null } });
    expect(res.status).toBe(201);
    expect((await server.api("GET", "/config/start_time/")).body.d).toBeNull();
  });
  it("is 400 required without a value", async () => {
    const res = await server.api("POST", "/config/event_name/", { token: staff.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ s: false, m: "required", d: { value: ["This field is required"] } });
  });
  it("is 400 invalid for a value of the wrong type", async () => {
    const res = await server.api("POST", "/config/team_size/", { token: staff.token, body: { value: "big" } });
    expect(res.status).toBe(400);
    expect(res.body.m).toBe("invalid");
    expect(res.body.d.value).toHaveLength(1);
  });
  it("is 403 for players and 401 without a token", async () => {
    expect((await server.api("POST", "/config/event_name/", { token: player.token, body: { value: "x" } })).status).toBe(403);
    const anon = await server.api("POST", "/config/event_name/", { body: { value: "x" } });
    expect(anon.status).toBe(401);
    expect(anon.body.m).toBe("not_authenticated");
  });
});

describe("experiments", () => {
  it("are a config key like the others, set by staff and read back in /config/ and /experiments/", async () => {
    expect((await server.api("GET", "/config/experiments/")).body).toEqual({ s: true, m: "", d: {} });
    const set = await server.api("POST", "/config/experiments/", { token: staff.token, body: { value: { leaderboardReload: true } } });
    expect(set.status).toBe(201);
    expect((await server.api("GET", "/config/")).body.d.experiments).toEqual({ leaderboardReload: true });
    expect((await server.api("GET", "/experiments/")).body.d).toEqual({ leaderboardReload: true });
    await server.api("POST", "/config/experiments/", { token: staff.token, body: { value: {} } });
  });
});

describe("GET /experiments/", () => {
  it("is an empty map by default", async () => {
    expect((await server.api("GET", "/experiments/")).body).toEqual({ s: true, m: "", d: {} });
  });
});
