import type { TestUser } from "@flagship/api/testing";
import { buildCtfdArchive, renameMember, sampleCtfdEvent } from "@flagship/api/testing/ctfd-archive";
import { beforeAll, describe, expect, it } from "vitest";
import { authHeader, useContractServer } from "./testing.ts";

const { server, staff, player } = await useContractServer();
let archive: Buffer;

beforeAll(async () => {
  archive = await buildCtfdArchive(sampleCtfdEvent());
});

const upload = (query: string, body: Buffer, user?: TestUser) =>
  server.app.inject({ method: "POST", url: `/port/ctfd${query}`, headers: { "content-type": "application/zip", ...authHeader(user) }, payload: body });
const counts = async () => {
  const db = server.world.services.db;
  return { challenges: await db.challenge.count(), users: await db.user.count(), audits: await db.auditLog.count({ where: { action: "import_ctfd" } }) };
};

describe("POST /port/ctfd", () => {
  it("refuses anonymous callers (401) and players (403), and changes nothing", async () => {
    const before = await counts();
    expect((await upload("?dry_run=1", archive)).statusCode).toBe(401);
    const refused = await upload("", archive, player);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ s: false, m: "permission_denied", d: { message: "You do not have permission to do that." } });
    expect(await counts()).toEqual(before);
  });

  it("answers a dry run's report (200) without changing anything", async () => {
    const before = await counts();
    const res = await upload("?dry_run=1", archive, staff);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { s: boolean; d: { dry_run: boolean; report: { mode: string; mapped: Record<string, number>; skipped: { kind: string }[] } } };
    expect(body.s).toBe(true);
    expect(body.d.dry_run).toBe(true);
    expect(body.d.report.mode).toBe("teams");
    expect(body.d.report.mapped).toMatchObject({ categories: 3, challenges: 4, users: 3, teams: 2, solves: 3 });
    expect(body.d.report.skipped.map((s) => s.kind)).toContain("award");
    expect(await counts()).toEqual(before);
  });

  it("answers 400 with the reason for an archive with an escaping path, and for garbage", async () => {
    const base = await buildCtfdArchive({ ...sampleCtfdEvent(), uploads: { "aaaa/xx.txt": "x" } });
    const escaping = await upload("", renameMember(base, "uploads/aaaa/xx.txt", "../../../../etc/pwd"), staff);
    expect(escaping.statusCode).toBe(400);
    expect(escaping.json()).toEqual({ s: false, m: "bad_request", d: { message: 'The archive contains an unsafe path: "../../../../etc/pwd".' } });
    const garbage = await upload("?dry_run=1", Buffer.from("PK not really"), staff);
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toEqual({ s: false, m: "bad_request", d: { message: "This is not a CTFd export (the .zip file from CTFd's Admin Panel → Config → Backup → Export), or it is damaged." } });
  });

  it("imports (201), audited; players=0 leaves the players out", async () => {
    const before = await counts();
    const res = await upload("?players=0", archive, staff);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ s: true, m: "", d: { dry_run: false, imported: { categories: 3, challenges: 4, files: 1, users: 0, teams: 0, solves: 0 } } });
    const after = await counts();
    expect(after).toEqual({ challenges: before.challenges + 4, users: before.users, audits: before.audits + 1 });
  });

  it("refuses a dry_run or players that is not 1, 0, true or false (400), and imports nothing", async () => {
    const before = await counts();
    for (const query of ["?dry_run=yes", "?dry_run=", "?players=maybe", "?dry_run=1&players=no"]) {
      const res = await upload(query, archive, staff);
      expect(res.statusCode).toBe(400);
      const key = query.includes("players") ? "players" : "dry_run";
      expect(res.json()).toEqual({ s: false, m: "bad_request", d: { message: `${key} must be 1, 0, true or false.`, details: { [key]: ["Use 1, 0, true or false."] } } });
    }
    expect(await counts()).toEqual(before);
    const upper = await upload("?dry_run=TRUE&players=False", archive, staff);
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toMatchObject({ d: { dry_run: true, report: { players: false } } });
    expect(await counts()).toEqual(before);
  });
});
