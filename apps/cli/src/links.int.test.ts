import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTeamWith } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, flagship, type Server, startServer, stopServer, tempRepository, writeChallenge } from "./testing.ts";

/**
 * Links in a repository, as a pull request could add them: a handed-out file or a challenge file
 * that is a link to something outside the repository is refused by name and nothing is written;
 * a link that stays inside the repository is an ordinary file.
 */
let server: Server | undefined;
let outside: string;
const repos: string[] = [];

beforeAll(async () => {
  server = await startServer();
  outside = await realpath(await mkdtemp(path.join(os.tmpdir(), "flagship-outside-")));
  await writeFile(path.join(outside, "passwd"), "root:x:0:0:root:/root:/bin/bash\n");
  await writeFile(path.join(outside, "challenge.yml"), "name: Smuggled\ncategory: Misc\nvalue: 1\nflags: ['flag{smuggled}']\n");
  await mkdir(path.join(outside, "folder"));
  await writeFile(path.join(outside, "folder", "challenge.yml"), "name: Folder\ncategory: Misc\nvalue: 1\nflags: ['flag{folder}']\n");
}, 120_000);

afterAll(async () => {
  await stopServer(server);
  for (const repo of [outside, ...repos]) await rm(repo, { recursive: true, force: true });
}, 120_000);

async function repository(): Promise<string> {
  const repo = await tempRepository();
  repos.push(repo);
  await writeChallenge(repo, "misc/fine", "name: Fine\ncategory: Misc\nvalue: 50\nflags: ['flag{fine}']\n");
  return repo;
}

async function nothingWritten(): Promise<void> {
  const db = server!.world.services.db;
  expect([await db.category.count(), await db.challenge.count(), await db.file.count()]).toEqual([0, 0, 0]);
}

describe("links in a repository", () => {
  it("refuses a handed-out file that links outside the repository, naming the challenge, the file and why", async () => {
    const repo = await repository();
    await writeChallenge(repo, "misc/leak", "name: Leak\ncategory: Misc\nvalue: 100\nflags: ['flag{leak}']\nfiles:\n  - dist/passwd\n");
    await mkdir(path.join(repo, "misc/leak/dist"));
    await symlink(path.join(outside, "passwd"), path.join(repo, "misc/leak/dist/passwd"));

    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(1);
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect(sync.code).toBe(1);
    expect(sync.stdout).toBe("");
    for (const output of [lint.stdout, sync.stderr]) {
      expect(output).toMatch(
        new RegExp(`misc/leak/challenge\\.yml:6: error: files: "dist/passwd" of "Misc/Leak" is a link to ${path.join(outside, "passwd").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}, outside the repository; it is not uploaded\\.`),
      );
    }
    expect(sync.stderr).toContain("1 problem(s); nothing was changed.");
    await nothingWritten();
  }, 60_000);

  it("refuses a challenge file that links outside the repository without reading it", async () => {
    const repo = await repository();
    await mkdir(path.join(repo, "misc/smuggled"));
    await symlink(path.join(outside, "challenge.yml"), path.join(repo, "misc/smuggled/challenge.yml"));
    // A linked folder is not walked at all: what lies behind it is not the repository's.
    await symlink(path.join(outside, "folder"), path.join(repo, "misc/folder"));

    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(`misc/smuggled/challenge.yml:1: error: challenge.yml is a link to ${path.join(outside, "challenge.yml")}, outside the repository; it is not read.`);
    expect(lint.stdout).toContain("2 challenge file(s): 1 error(s), 0 warning(s).");
    expect(lint.stdout).not.toContain("Smuggled");
    expect(lint.stdout).not.toContain("Folder");
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stdout]).toEqual([1, ""]);
    expect(sync.stderr).toContain("misc/smuggled/challenge.yml:1: error: challenge.yml is a link to");
    await nothingWritten();
  }, 60_000);

  it("takes links that stay inside the repository as the files they lead to", async () => {
    const repo = await repository();
    await mkdir(path.join(repo, "shared"));
    await writeFile(path.join(repo, "shared/notes.txt"), "shared notes\n");
    await writeFile(path.join(repo, "shared/inside.yml"), "name: Inside\ncategory: Misc\nvalue: 100\nflags: ['flag{inside}']\nfiles:\n  - dist/notes.txt\n");
    await mkdir(path.join(repo, "misc/inside/dist"), { recursive: true });
    await symlink("../../shared/inside.yml", path.join(repo, "misc/inside/challenge.yml"));
    await symlink("../../../shared/notes.txt", path.join(repo, "misc/inside/dist/notes.txt"));

    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect(sync.stderr).toBe("");
    expect(sync.code).toBe(0);
    expect(sync.stdout).toContain('+ created challenge "Misc/Inside", 1 file(s)');

    const team = await createTeamWith(server!.world);
    const player = team.members[0]!.token;
    const categories = await api<{ challenges: { name: string; files: { name: string; url: string }[] }[] }[]>(server!.url, player, "GET", "/challenges/categories/");
    const inside = categories.flatMap((c) => c.challenges).find((c) => c.name === "Inside")!;
    expect(inside.files.map((f) => f.name)).toEqual(["notes.txt"]);
    const download = await fetch(new URL(inside.files[0]!.url, server!.url), { headers: { authorization: `Token ${player}` } });
    expect(await download.text()).toBe("shared notes\n");

    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect([again.code, again.stdout.trim()]).toEqual([0, "Nothing to change: 2 challenge(s) up to date."]);
  }, 60_000);
});
