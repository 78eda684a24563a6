import { rm, truncate } from "node:fs/promises";
import path from "node:path";
import { createTeamWith } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, flagship, type Server, startServer, stopServer, tempRepository, writeChallenge } from "./testing.ts";

/**
 * Challenge files as CTF teams have published them, written by older ctfcli versions, synced and
 * then checked through the API as staff and as players.
 */
let server: Server | undefined;
const repos: string[] = [];

beforeAll(async () => {
  server = await startServer();
}, 120_000);

afterAll(async () => {
  await stopServer(server);
  for (const repo of repos) await rm(repo, { recursive: true, force: true });
}, 120_000);

async function repository(): Promise<string> {
  const repo = await tempRepository();
  repos.push(repo);
  return repo;
}

type Category = { name: string; challenges: any[] };
const challengesOf = async (token: string) =>
  new Map((await api<Category[]>(server!.url, token, "GET", "/challenges/categories/")).flatMap((c) => c.challenges.map((ch) => [ch.name as string, ch])));

describe("older ctfcli's dynamic challenges", () => {
  it("sync with decay and minimum at the top level and value as the initial value, with a warning naming the new form", async () => {
    const repo = await repository();
    await writeChallenge(
      repo,
      "web/falling",
      "name: Falling\ncategory: Web\ndescription: Worth less each solve.\ntype: dynamic\nvalue: 500\ndecay: 25\nminimum: 100\nflags:\n  - flag{falling}\n",
    );
    await writeChallenge(repo, "web/linear", "name: Linear\ncategory: Web\ntype: dynamic\nvalue: 300\ndecay: 50\nminimum: 100\nfunction: linear\nflags:\n  - flag{linear}\n");

    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stderr]).toEqual([0, ""]);
    expect(sync.stdout).toMatch(/web\/falling\/challenge\.yml:6: warning: decay and minimum at the top level is ctfcli's older form, read as it was; write extra: \{initial: 500, decay: 25, minimum: 100\} instead\./);
    expect(sync.stdout).toMatch(/web\/linear\/challenge\.yml:5: warning: decay, minimum and function at the top level is ctfcli's older form, read as it was; write extra: \{initial: 300, decay: 50, minimum: 100, function: linear\} instead\./);
    expect(sync.stdout).not.toContain("Unknown key");
    expect(sync.stdout).toContain('+ created challenge "Web/Falling"');

    const staff = await challengesOf(server!.token);
    expect(staff.get("Falling")).toMatchObject({ score: 500, points_type: "decay", flag_metadata: { flag: "flag{falling}", decay_function: "logarithmic", decay: 25, min_points: 100 } });
    expect(staff.get("Linear")).toMatchObject({ score: 300, points_type: "decay", flag_metadata: { decay_function: "linear", decay: 50, min_points: 100 } });

    const teams = [await createTeamWith(server!.world), await createTeamWith(server!.world), await createTeamWith(server!.world)];
    for (const team of teams) {
      for (const [name, flag] of [
        ["Falling", "flag{falling}"],
        ["Linear", "flag{linear}"],
      ] as const) {
        const answer = await api<{ correct: boolean }>(server!.url, team.members[0]!.token, "POST", "/challenges/submit_flag/", { challenge: staff.get(name).id, flag });
        expect(answer.correct).toBe(true);
      }
    }
    const player = await challengesOf(teams[0]!.members[0]!.token);
    // CTFd's values after three solves: ceil(500 - 400 / 25^2 * 2^2) and 300 - 2 * 50.
    expect([player.get("Falling").current_score, player.get("Linear").current_score]).toEqual([498, 200]);
    expect(player.get("Falling")).not.toHaveProperty("flag_metadata");

    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split("\n").at(-1)).toBe("Nothing to change: 2 challenge(s) up to date.");
  }, 120_000);
});

describe("quoted numbers and keys given twice", () => {
  it("sync as ctfcli read them: quoted numbers as numbers, the later of two keys, each with the file's line", async () => {
    const repo = await repository();
    await writeChallenge(
      repo,
      "misc/quoted",
      'name: Quoted\ncategory: Misc\nvalue: "150"\nattempts: "4"\ndescription: Draft.\ndescription: Final.\nflags:\n  - flag{quoted}\nhints:\n  - content: Look closer.\n    cost: "30"\n',
    );
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stderr]).toEqual([0, ""]);
    expect(sync.stdout).toContain('misc/quoted/challenge.yml:6: warning: "description" is given twice (first on line 5); the later one is used, as ctfcli reads it.');

    const staff = await challengesOf(server!.token);
    expect(staff.get("Quoted")).toMatchObject({ score: 150, attempt_limit: 4, description: "Final.", hints: [{ penalty: 30, text: "Look closer." }] });
    const player = await challengesOf((await createTeamWith(server!.world)).members[0]!.token);
    expect(player.get("Quoted")).toMatchObject({ score: 150, description: "Final.", hints: [{ penalty: 30, text: "", used: false }] });
  }, 120_000);
});

describe("YAML errors", () => {
  it("are reported at their own line", async () => {
    const repo = await repository();
    await writeChallenge(repo, "misc/braces", "name: Braces\ncategory: Misc\nvalue: 10\nflags: [flag{braces}]\n");
    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/misc\/braces\/challenge\.yml:4: error: [^\n]*flow sequence/);
  }, 60_000);
});

describe("large handed-out files", () => {
  it("are checked by their size and existence, never read whole: lint passes a 3 GB file at once", async () => {
    const repo = await repository();
    await writeChallenge(repo, "forensics/disk", "name: Disk\ncategory: Forensics\nvalue: 400\nflags:\n  - flag{disk}\nfiles:\n  - dist/disk.img\n", { "dist/disk.img": "" });
    // Sparse: 3 GB as the file system reports it; reading it whole is more than a Buffer holds.
    await truncate(path.join(repo, "forensics/disk/dist/disk.img"), 3 * 1024 ** 3);
    const started = Date.now();
    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect([lint.code, lint.stdout.trim()]).toEqual([0, "1 challenge file(s): 0 error(s), 0 warning(s)."]);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);
});
