import type { TestUser } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { authHeader, useContractServer } from "./testing.ts";

const { server, staff, player } = await useContractServer();

function upload(name: string, body: Buffer | string, user?: TestUser) {
  return server.app.inject({
    method: "POST",
    url: `/files/upload?name=${encodeURIComponent(name)}`,
    headers: { "content-type": "application/octet-stream", ...authHeader(user) },
    payload: body,
  });
}

describe("POST /files/upload", () => {
  it("stores the bytes for staff (201) and serves them back as an attachment", async () => {
    const res = await upload("../../etc/passwd notes.txt", "hello file", staff);
    expect(res.statusCode).toBe(201);
    const { d } = res.json() as { d: { name: string; url: string; size: number } };
    // Only the last path segment is kept: no way out of storage.
    expect(d).toEqual({ name: "passwd notes.txt", url: expect.stringMatching(/^\/files\/[0-9a-f]{32}\/passwd%20notes\.txt$/), size: 10 });
    const download = await server.app.inject({ method: "GET", url: d.url });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("hello file");
    expect(download.headers["content-disposition"]).toBe(`attachment; filename="passwd notes.txt"; filename*=UTF-8''passwd%20notes.txt`);
    expect(download.headers["content-type"]).toBe("application/octet-stream");
    expect(await server.world.services.db.auditLog.count({ where: { action: "upload_file" } })).toBe(1);
  });

  it("refuses players (403) and anonymous callers (401)", async () => {
    expect((await upload("a.txt", "x", player)).statusCode).toBe(403);
    expect((await upload("a.txt", "x")).statusCode).toBe(401);
  });

  it("GET tells staff the largest upload accepted; players 403, anonymous 401", async () => {
    const limits = await server.app.inject({ method: "GET", url: "/files/upload", headers: authHeader(staff) });
    expect([limits.statusCode, limits.json()]).toEqual([200, { s: true, m: "", d: { max_bytes: 100 * 1024 * 1024 } }]);
    expect((await server.app.inject({ method: "GET", url: "/files/upload", headers: authHeader(player) })).statusCode).toBe(403);
    expect((await server.app.inject({ method: "GET", url: "/files/upload" })).statusCode).toBe(401);
  });

  it("needs a name", async () => {
    const res = await server.app.inject({ method: "POST", url: "/files/upload", headers: authHeader(staff), payload: "x" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ s: false, m: "required", d: { name: ["This field is required"] } });
  });
});

describe("GET /files/{key}/{name}", () => {
  it("answers 404 for unknown keys, malformed keys and traversal attempts", async () => {
    const stored = (await upload("real.bin", "data", staff)).json() as { d: { url: string } };
    const key = stored.d.url.split("/")[2]!;
    for (const url of [`/files/${"0".repeat(32)}/real.bin`, "/files/not-a-key/real.bin", `/files/${key}/..%2F..%2Fpostgres.port`, `/files/${key}/other.bin`]) {
      expect((await server.app.inject({ method: "GET", url })).statusCode).toBe(404);
    }
  });
});
