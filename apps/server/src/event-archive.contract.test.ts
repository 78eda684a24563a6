import { gunzipSync } from "node:zlib";
import { callerFor, type TestUser } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { authHeader, useContractServer } from "./testing.ts";

const { server, staff, player } = await useContractServer();

const download = (user?: TestUser) => server.app.inject({ method: "GET", url: "/port/event", headers: authHeader(user) });
const upload = (body: Buffer, user?: TestUser) => server.app.inject({ method: "POST", url: "/port/event", headers: { "content-type": "application/gzip", ...authHeader(user) }, payload: body });
const audits = (action: string) => server.world.services.db.auditLog.count({ where: { action } });
const setExperiments = (value: Record<string, boolean>) => callerFor(server.world, staff).config.set({ key: "experiments", value });

describe("GET and POST /port/event", () => {
  it("refuses anonymous callers (401) and players (403), and changes nothing", async () => {
    await setExperiments({ importEntire: true });
    expect((await download()).statusCode).toBe(401);
    expect((await download(player)).statusCode).toBe(403);
    expect((await upload(Buffer.from("x"))).statusCode).toBe(401);
    const refused = await upload(Buffer.from("x"), player);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ s: false, m: "permission_denied", d: { message: "You do not have permission to do that." } });
    expect(await audits("export_event")).toBe(0);
    expect(await audits("import_event")).toBe(0);
  });

  it("needs the importEntire experiment, even for staff", async () => {
    await setExperiments({});
    try {
      const res = await download(staff);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ s: false, m: "permission_denied", d: { message: "Whole-event import and export are not enabled (importEntire)." } });
      expect((await upload(Buffer.from("x"), staff)).statusCode).toBe(403);
    } finally {
      await setExperiments({ importEntire: true });
    }
  });

  it("downloads the event as a .tar.gz for staff, audited, and imports it back into the empty event", async () => {
    const res = await download(staff);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/gzip");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="flagship-event.tar.gz"');
    // A tar archive inside the gzip: "ustar" at offset 257 of the first header.
    expect(gunzipSync(res.rawPayload).subarray(257, 262).toString()).toBe("ustar");
    expect(await audits("export_event")).toBe(1);

    const imported = await upload(res.rawPayload, staff);
    expect(imported.statusCode).toBe(201);
    expect(imported.json()).toEqual({ s: true, m: "", d: { categories: 0, challenges: 0, files: 0 } });
    expect(await audits("import_event")).toBe(1);
  });

  it("answers 400 with the reason for garbage and for an event that is not empty", async () => {
    const garbage = await upload(Buffer.from("not an archive"), staff);
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toEqual({ s: false, m: "bad_request", d: { message: "This is not an event archive (a .tar.gz file exported by Flagship), or it is damaged." } });

    const archive = (await download(staff)).rawPayload;
    await callerFor(server.world, staff).challenges.createCategory({ name: "Existing", contained_type: "jeopardy", description: "" });
    const refused = await upload(archive, staff);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ s: false, m: "bad_request", d: { message: "Events can only be imported into an empty event: remove every category first." } });
    expect(await server.world.services.db.category.count()).toBe(1);
    expect(await audits("import_event")).toBe(1);
  });
});
