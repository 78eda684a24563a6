import { rm, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, flagship, type Server, startServer, stopServer, tempRepository, writeChallenge } from "./testing.ts";

/**
 * A sync is all or nothing: what the server would refuse is found before anything is written
 * (a file over the upload limit the server reports, a field its schema refuses), and a refusal
 * only the server can make (an image registry the organisers do not allow) undoes whatever the
 * run had already written, so the event is as it was.
 */
let server: Server | undefined;
let repo: string;

beforeAll(async () => {
  server = await startServer();
  repo = await tempRepository();
  await writeChallenge(repo, "misc/keep", "name: Keep\ncategory: Misc\ndescription: As it was.\nvalue: 100\nflags:\n  - flag{keep}\nhints:\n  - First hint.\nfiles:\n  - notes.txt\n", { "notes.txt": "notes one\n" });
  const first = await flagship(server, ["challenge", "sync", repo]);
  expect([first.code, first.stderr]).toEqual([0, ""]);
}, 120_000);

afterAll(async () => {
  await stopServer(server);
  await rm(repo, { recursive: true, force: true });
}, 120_000);

/** Everything a sync can change, as staff read it, plus the rows behind it. */
async function eventState() {
  const db = server!.world.services.db;
  return {
    categories: await api(server!.url, server!.token, "GET", "/challenges/categories/"),
    jobs: await api(server!.url, server!.token, "GET", "/challengeserver/jobs/"),
    rows: [await db.category.count(), await db.challenge.count(), await db.hint.count(), await db.file.count(), await db.tag.count()],
  };
}

describe("a sync that the server would refuse", () => {
  it("checks file sizes against the server's upload limit before writing, naming the file, the challenge and the limit", async () => {
    const before = await eventState();
    const uploads = await server!.world.services.db.auditLog.count({ where: { action: "upload_file" } });
    await writeChallenge(repo, "net/alpha", "name: Alpha\ncategory: Net\nvalue: 50\nflags:\n  - flag{alpha}\n");
    await writeChallenge(repo, "net/huge", "name: Huge\ncategory: Net\nvalue: 50\nflags:\n  - flag{huge}\nfiles:\n  - small.txt\n  - dist/capture.pcap\n", { "small.txt": "small\n", "dist/capture.pcap": "" });
    // Sparse: as large as the listing says without taking the disk; the sync must not read it.
    await truncate(path.join(repo, "net/huge/dist/capture.pcap"), 150 * 1024 * 1024 + 1);

    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(0);
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect(sync.code).toBe(1);
    expect(sync.stdout).toBe("");
    expect(sync.stderr).toContain('net/huge/challenge.yml:8: error: files: "dist/capture.pcap" of "Net/Huge" is 150.0 MB, over the server\'s upload limit of 100 MB.');
    expect(sync.stderr).toContain("1 problem(s); nothing was changed.");
    expect(await eventState()).toEqual(before);
    expect(await server!.world.services.db.auditLog.count({ where: { action: "upload_file" } })).toBe(uploads);
    await rm(path.join(repo, "net/huge"), { recursive: true });
  }, 60_000);

  it("checks each challenge against the server's schema before writing", async () => {
    const before = await eventState();
    await writeChallenge(repo, "net/tagged", "name: Tagged\ncategory: Net\nvalue: 50\nflags:\n  - flag{tagged}\nflagship:\n  challenge_type: \"not a type!\"\n");
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect(sync.code).toBe(1);
    expect(sync.stdout).toBe("");
    expect(sync.stderr).toMatch(/net\/tagged\/challenge\.yml:1: error: challenge_type: .*\(the server would refuse "Net\/Tagged"\)/);
    expect(await eventState()).toEqual(before);
    await rm(path.join(repo, "net/tagged"), { recursive: true });
  }, 60_000);

  it("undoes what the run had written when the server refuses a write midway", async () => {
    const before = await eventState();
    const keep = path.join(repo, "misc/keep");
    await writeFile(path.join(keep, "challenge.yml"), "name: Keep\ncategory: Misc\ndescription: Edited.\nvalue: 200\nflags:\n  - flag{keep}\nhints:\n  - First hint, edited.\n  - A second hint.\nfiles:\n  - notes.txt\n  - more.txt\n");
    await writeFile(path.join(keep, "more.txt"), "more\n");
    // Its image is on an internal address, which only the organisers' settings on the server can allow.
    await writeChallenge(repo, "net/local", "name: Local\ncategory: Net\nvalue: 300\nimage: 127.0.0.1:5000/pwn/local:1\nflags:\n  - flag{local}\nflagship:\n  server:\n    port: 8000\n");

    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect(sync.code).toBe(3);
    // Each line is printed once its write was made; the last word says all of them were undone.
    expect(sync.stdout).toContain('+ created category "Net"');
    expect(sync.stdout).toContain('~ updated "Misc/Keep": description, score');
    expect(sync.stdout).not.toContain("submitted");
    expect(sync.stderr).toMatch(/job_spec\.image: 127\.0\.0\.1:5000 is on an internal address/);
    expect(sync.stderr).toMatch(/The sync stopped there; the \d+ change\(s\) it had made were undone, so the event is as it was\./);
    expect(await eventState()).toEqual(before);

    await rm(path.join(repo, "net/local"), { recursive: true });
    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect([again.code, again.stderr]).toEqual([0, ""]);
    expect(again.stdout).toContain('~ updated "Misc/Keep": description, score');
    expect(again.stdout).toContain('+ created challenge "Net/Alpha"');
  }, 120_000);
});

describe("two syncs at once", () => {
  it("refuses a sync while another holds the event's lease, naming it, and writes nothing", async () => {
    const held = await api<{ token: string }>(server!.url, server!.token, "POST", "/challenges/sync/lease/", { holder: "release-pipeline" });
    await writeChallenge(repo, "net/beta", "name: Beta\ncategory: Net\nvalue: 50\nflags:\n  - flag{beta}\n");
    const before = await eventState();
    const refused = await flagship(server!, ["challenge", "sync", repo]);
    expect([refused.code, refused.stdout]).toEqual([3, ""]);
    expect(refused.stderr).toMatch(/Another challenge sync is running, started by \S+ \(release-pipeline\) at .*; nothing was changed\./);
    expect(await eventState()).toEqual(before);
    // A dry run writes nothing and takes no lease.
    expect((await flagship(server!, ["challenge", "sync", repo, "--dry-run"])).stdout).toContain('would create challenge "Net/Beta"');

    await api(server!.url, server!.token, "DELETE", "/challenges/sync/lease/", { token: held.token });
    const run = await flagship(server!, ["challenge", "sync", repo]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toContain('+ created challenge "Net/Beta"');
    // The sync gave its lease back.
    expect(await server!.world.services.db.challengeSyncLease.count()).toBe(0);
  }, 120_000);

  it("never duplicates a category or a challenge when two syncs start together", async () => {
    const twin = await tempRepository();
    try {
      for (const n of [1, 2, 3, 4]) await writeChallenge(twin, `twin/c${n}`, `name: Twin ${n}\ncategory: Twins\nvalue: ${n * 10}\nflags:\n  - flag{twin${n}}\n`);
      const runs = await Promise.all([flagship(server!, ["challenge", "sync", twin]), flagship(server!, ["challenge", "sync", twin])]);
      // Either the second found the lease held, or it started after the first ended and found nothing to change.
      expect(runs.filter((r) => r.code === 0 && r.stdout.includes('+ created category "Twins"'))).toHaveLength(1);
      for (const other of runs.filter((r) => !r.stdout.includes('+ created category "Twins"'))) {
        expect(other.code === 3 ? other.stderr : other.stdout).toMatch(/Another challenge sync is running|Nothing to change/);
      }
      const db = server!.world.services.db;
      expect(await db.category.count({ where: { name: "Twins" } })).toBe(1);
      const names = (await db.challenge.findMany({ where: { name: { startsWith: "Twin " } }, select: { name: true } })).map((c) => c.name).sort();
      expect(names).toEqual(["Twin 1", "Twin 2", "Twin 3", "Twin 4"]);
    } finally {
      await rm(twin, { recursive: true, force: true });
    }
  }, 120_000);
});
