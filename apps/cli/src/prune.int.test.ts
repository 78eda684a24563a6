import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createTeamWith } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, flagship, type Server, startServer, stopServer, tempRepository, writeChallenge } from "./testing.ts";

/**
 * Two repositories and a challenge made by hand in one event: each sync updates and prunes only
 * what its repository made, says whose a same-name challenge is, and deletes only after a yes.
 */
let server: Server | undefined;
let repoA: string;
let repoB: string;
const A = ["--source", "github.com/team-a/challenges"];
const B = ["--source", "team-b"];

beforeAll(async () => {
  server = await startServer();
  repoA = await tempRepository();
  repoB = await tempRepository();
  const yml = (name: string) => `name: ${name}\ncategory: Misc\nvalue: 100\nflags:\n  - flag{${name.toLowerCase()}}\n`;
  for (const name of ["Shared", "A1", "A2"]) await writeChallenge(repoA, name.toLowerCase(), yml(name));
  for (const name of ["Shared", "B1"]) await writeChallenge(repoB, name.toLowerCase(), yml(name));
}, 120_000);

afterAll(async () => {
  await stopServer(server);
  for (const repo of [repoA, repoB]) await rm(repo, { recursive: true, force: true });
}, 120_000);

const names = async () => (await server!.world.services.db.challenge.findMany({ select: { name: true, source: true }, orderBy: { name: "asc" } })).map((c) => `${c.name} ${c.source}`);

describe("challenges of several repositories", () => {
  it("records which repository made each challenge, for staff only", async () => {
    const run = await flagship(server!, ["challenge", "sync", repoA, ...A]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const category = await server!.world.services.db.category.findFirstOrThrow({ where: { name: "Misc" } });
    await api(server!.url, server!.token, "POST", "/challenges/", { category: category.id, name: "Hand", score: 10, flag_metadata: { flag: "flag{hand}" } });
    expect(await names()).toEqual(["A1 github.com/team-a/challenges", "A2 github.com/team-a/challenges", "Hand ", "Shared github.com/team-a/challenges"]);

    const staffView = await api<{ challenges: { name: string; source?: string }[] }[]>(server!.url, server!.token, "GET", "/challenges/categories/");
    expect(staffView[0]!.challenges.find((c) => c.name === "A1")!.source).toBe("github.com/team-a/challenges");
    const player = (await createTeamWith(server!.world)).members[0]!.token;
    const playerView = await api<{ challenges: object[] }[]>(server!.url, player, "GET", "/challenges/categories/");
    for (const challenge of playerView[0]!.challenges) expect(challenge).not.toHaveProperty("source");
  }, 60_000);

  it("says whose a challenge of the same name is instead of overwriting it, and changes nothing", async () => {
    const before = await names();
    const run = await flagship(server!, ["challenge", "sync", repoB, ...B]);
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain(`shared${path.sep}challenge.yml:1: error: "Misc/Shared" is already repository "github.com/team-a/challenges"'s; it is left as it is.`);
    expect(run.stderr).toContain("1 problem(s); nothing was changed.");
    expect(await names()).toEqual(before);

    await rm(path.join(repoB, "shared"), { recursive: true });
    const again = await flagship(server!, ["challenge", "sync", repoB, ...B]);
    expect([again.code, again.stderr]).toEqual([0, ""]);
    expect(await names()).toContain("B1 team-b");
  }, 60_000);

  it("prunes only what its repository made, listing it and deleting nothing without a yes", async () => {
    await rm(path.join(repoA, "a2"), { recursive: true });
    const before = await names();
    // No terminal to ask on (as in CI): --yes is needed.
    const asked = await flagship(server!, ["challenge", "sync", repoA, ...A, "--prune"]);
    expect([asked.code, asked.stdout]).toEqual([2, ""]);
    expect(asked.stderr).toContain('--prune will delete 1 challenge(s) that repository "github.com/team-a/challenges" made and no longer has, with their solves:\n  "Misc/A2"\n');
    expect(asked.stderr).toContain("give --yes to delete them. Nothing was changed.");
    expect(await names()).toEqual(before);

    const dry = await flagship(server!, ["challenge", "sync", repoA, ...A, "--prune", "--dry-run"]);
    expect(dry.stdout.trim().split("\n")).toEqual(['- would delete challenge "Misc/A2"', "Dry run: 1 change(s) to 1 challenge(s) would be made; nothing was written."]);

    const pruned = await flagship(server!, ["challenge", "sync", repoA, ...A, "--prune", "--yes"]);
    expect([pruned.code, pruned.stderr]).toEqual([0, ""]);
    expect(pruned.stdout.trim().split("\n")).toEqual(['- deleted challenge "Misc/A2"', "Done: 1 change(s) to 1 challenge(s); 2 unchanged."]);
    // The other repository's challenge and the one made by hand stay.
    expect(await names()).toEqual(["A1 github.com/team-a/challenges", "B1 team-b", "Hand ", "Shared github.com/team-a/challenges"]);
  }, 60_000);

  it("names a repository by its git remote, without credentials, when --source is not given", async () => {
    const repoC = await tempRepository();
    try {
      await writeChallenge(repoC, "crypto/c1", "name: C1\ncategory: Crypto\nvalue: 100\nflags:\n  - flag{c1}\n");
      execFileSync("git", ["init", "-q", repoC]);
      execFileSync("git", ["-C", repoC, "remote", "add", "origin", "https://ci-bot:s3cret@git.example.org/team-c/challenges.git"]);
      const run = await flagship(server!, ["challenge", "sync", path.join(repoC, "crypto")]);
      expect([run.code, run.stderr]).toEqual([0, ""]);
      expect(await names()).toContain("C1 https://git.example.org/team-c/challenges/crypto");
    } finally {
      await rm(repoC, { recursive: true, force: true });
    }
  }, 60_000);
});
