import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffContext } from "../guards.ts";
import { contextFor, createTestWorld, createUser, type TestWorld } from "../testing/index.ts";
import { openStoredFile, safeFileName, storeUpload } from "./file-storage.ts";

let world: TestWorld;
let ctx: StaffContext;
let dataDir: string;

beforeAll(async () => {
  world = await createTestWorld();
  ctx = contextFor(world, await createUser(world, { isStaff: true })) as StaffContext;
  dataDir = await mkdtemp(path.join(os.tmpdir(), "flagship-storage-"));
});
afterAll(async () => {
  await world.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("challenge file storage", () => {
  it("reduces names to one safe path segment", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("C:\\Users\\me\\evil.exe")).toBe("evil.exe");
    expect(safeFileName("..")).toBe("file");
    expect(safeFileName(".hidden")).toBe("hidden");
    expect(safeFileName('a<b>:"c"|?*.txt')).toBe("a_b___c____.txt");
    expect(safeFileName("x".repeat(300))).toHaveLength(200);
  });

  it("refuses an upload over the size limit and leaves nothing behind", async () => {
    const before = await readdir(path.join(dataDir, "files")).catch(() => []);
    await expect(storeUpload(ctx, { dataDir, name: "big.bin", body: Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), maxBytes: 10 })).rejects.toMatchObject({ code: "bad_request" });
    expect(await readdir(path.join(dataDir, "files")).catch(() => [])).toEqual(before);
  });

  it("stores within the limit and finds the file only by its key and stored name", async () => {
    const stored = await storeUpload(ctx, { dataDir, name: "ok.txt", body: Readable.from([Buffer.from("0123456789")]), maxBytes: 10 });
    expect(stored.size).toBe(10);
    const [, , key] = stored.url.split("/");
    expect(await openStoredFile(dataDir, key!, "ok.txt")).toMatchObject({ name: "ok.txt", size: 10 });
    expect(await openStoredFile(dataDir, key!, "../ok.txt")).toBeNull();
    expect(await openStoredFile(dataDir, "../../x", "ok.txt")).toBeNull();
  });
});
