import { afterEach, describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

/** One challenge sync at a time (the sync's lease), and one category per name. */
const { server, staff, player } = await useContractServer();
const LEASE = "/challenges/sync/lease/";

afterEach(() => server.world.setNow(null));

describe("the challenge sync's lease", () => {
  it("is staff's: players 403, anonymous 401", async () => {
    expect((await server.api("POST", LEASE, { token: player.token, body: {} })).status).toBe(403);
    expect((await server.api("POST", LEASE, { body: {} })).status).toBe(401);
    expect(await server.world.services.db.challengeSyncLease.count()).toBe(0);
  });

  it("is held by one sync at a time, renewed by its token, given back, audited", async () => {
    const taken = await server.api("POST", LEASE, { token: staff.token, body: { holder: "ctf-2026 from ci" } });
    expect(taken.status).toBe(201);
    expect(taken.body.d).toEqual({ token: expect.stringMatching(/^[0-9a-f]{64}$/), expires_at: expect.any(String) });
    const token = taken.body.d.token as string;

    const second = await server.api("POST", LEASE, { token: staff.token, body: { holder: "laptop" } });
    expect([second.status, second.body.m]).toEqual([409, "sync_in_progress"]);
    expect(second.body.d).toEqual({ username: staff.actor.username, holder: "ctf-2026 from ci", since: expect.any(String), expires_at: taken.body.d.expires_at });

    expect((await server.api("PATCH", LEASE, { token: staff.token, body: { token } })).status).toBe(200);
    const wrong = await server.api("PATCH", LEASE, { token: staff.token, body: { token: "0".repeat(64) } });
    expect([wrong.status, wrong.body.m]).toEqual([409, "sync_lease_lost"]);
    expect((await server.api("PATCH", LEASE, { token: staff.token, body: {} })).body.m).toBe("required");

    expect((await server.api("DELETE", LEASE, { token: staff.token, body: { token } })).body).toEqual({ s: true, m: "", d: "" });
    expect((await server.api("DELETE", LEASE, { token: staff.token, body: { token } })).status).toBe(200);
    const next = await server.api("POST", LEASE, { token: staff.token, body: {} });
    expect(next.status).toBe(201);
    await server.api("DELETE", LEASE, { token: staff.token, body: { token: next.body.d.token } });

    const audit = await server.world.services.db.auditLog.findMany({ where: { action: { in: ["start_challenge_sync", "end_challenge_sync"] } }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(["start_challenge_sync", "end_challenge_sync", "start_challenge_sync", "end_challenge_sync"]);
  });

  it("runs out when a sync stops renewing it, and is then another sync's", async () => {
    const now = Math.floor(Date.now() / 1000);
    server.world.setNow(now);
    const stale = (await server.api("POST", LEASE, { token: staff.token, body: { holder: "crashed" } })).body.d.token as string;
    server.world.setNow(now + 119);
    expect((await server.api("POST", LEASE, { token: staff.token, body: {} })).status).toBe(409);
    server.world.setNow(now + 121);
    const fresh = await server.api("POST", LEASE, { token: staff.token, body: { holder: "next" } });
    expect(fresh.status).toBe(201);
    expect((await server.api("PATCH", LEASE, { token: staff.token, body: { token: stale } })).body.m).toBe("sync_lease_lost");
    // Giving back a lease that is no longer yours leaves the new holder's alone.
    await server.api("DELETE", LEASE, { token: staff.token, body: { token: stale } });
    expect((await server.api("PATCH", LEASE, { token: staff.token, body: { token: fresh.body.d.token } })).status).toBe(200);
    await server.api("DELETE", LEASE, { token: staff.token, body: { token: fresh.body.d.token } });
  });

  it("goes to exactly one of ten syncs starting at once", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => server.api("POST", LEASE, { token: staff.token, body: { holder: `sync ${i}` } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const winner = answers.find((a) => a.status === 201)!;
    await server.api("DELETE", LEASE, { token: staff.token, body: { token: winner.body.d.token } });
  });
});

describe("category names", () => {
  it("are unique: a second category of a name, created or renamed to, is 400 unique on name and changes nothing", async () => {
    const first = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Forensics" } });
    expect(first.status).toBe(201);
    const other = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Stego" } });
    const again = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Forensics" } });
    expect([again.status, again.body]).toEqual([400, { s: false, m: "unique", d: { name: ["A category of this name exists already."] } }]);
    const renamed = await server.api("PATCH", `/challenges/categories/${other.body.d.id}/`, { token: staff.token, body: { name: "Forensics" } });
    expect([renamed.status, renamed.body.m]).toEqual([400, "unique"]);
    const names = (await server.world.services.db.category.findMany({ select: { name: true }, orderBy: { id: "asc" } })).map((c) => c.name);
    expect(names.filter((n) => n === "Forensics")).toEqual(["Forensics"]);
    expect(names).toContain("Stego");
  });

  it("stay unique when ten creations of one name race: one is made, the rest answer unique", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Race" } })));
    expect(answers.map((a) => `${a.status} ${a.body.m}`).sort()).toEqual(["201 ", ...Array(9).fill("400 unique")]);
    expect(await server.world.services.db.category.count({ where: { name: "Race" } })).toBe(1);
  });
});
