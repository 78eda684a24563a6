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

describe("scheduled releases, ctfcli's unused keys and files of one name", () => {
  it("sync scheduled_at as ctfcli writes it: hidden from players until then, staff see it; a later edit moves it", async () => {
    const repo = await repository();
    const yml = (at: string) => `name: Timed\ncategory: Web\nvalue: 100\nscheduled_at: ${at}\nflags:\n  - flag{timed}\n`;
    await writeChallenge(repo, "web/timed", yml("2099-06-01T10:00:00+02:00"));
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stderr]).toEqual([0, ""]);
    expect(sync.stdout).not.toContain("Unknown key");
    expect((await challengesOf(server!.token)).get("Timed")).toMatchObject({ scheduled_at: "2099-06-01T08:00:00.000Z", hidden: false });
    const player = (await createTeamWith(server!.world)).members[0]!.token;
    expect((await challengesOf(player)).has("Timed")).toBe(false);
    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect(again.stdout.trim().split("\n").at(-1)).toBe("Nothing to change: 1 challenge(s) up to date.");

    // Moved to a moment just ahead, as ctfcli writes it (seconds, +00:00): released then with no one doing anything.
    const release = new Date(Math.ceil((Date.now() + 8000) / 1000) * 1000);
    await writeChallenge(repo, "web/timed", yml(`"${release.toISOString().replace(/\.\d+Z$/, "+00:00")}"`));
    const moved = await flagship(server!, ["challenge", "sync", repo]);
    expect(moved.stdout).toContain('~ updated "Web/Timed": scheduled_at');
    expect((await challengesOf(server!.token)).get("Timed")).toMatchObject({ scheduled_at: release.toISOString() });
    await new Promise((resolve) => setTimeout(resolve, Math.max(release.getTime() - Date.now(), 0) + 300));
    expect((await challengesOf(player)).get("Timed")).toMatchObject({ name: "Timed", unlocked: true });

    await writeChallenge(repo, "web/timed", yml("next friday"));
    const bad = await flagship(null, ["challenge", "lint", repo]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/web\/timed\/challenge\.yml:4: error: scheduled_at: "next friday" is not an ISO-8601 date and time/);
  }, 120_000);

  it("warn once per repository for each ctfcli key Flagship does not use, with how many files have it", async () => {
    const repo = await repository();
    for (const n of [1, 2, 3]) {
      await writeChallenge(repo, `misc/unused-${n}`, `name: Unused ${n}\ncategory: Misc\nvalue: 10\nsolution: writeup.md\n${n === 2 ? "module: web\n" : ""}flags:\n  - flag{u${n}}\n`);
    }
    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(0);
    const warnings = lint.stdout.split("\n").filter((line) => line.includes(": warning: "));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/misc\/unused-1\/challenge\.yml:4: warning: "solution" is ctfcli's but Flagship does not use it; it is ignored \(3 challenge files have it; said once for the repository\)\.$/);
    expect(warnings[1]).toMatch(/misc\/unused-2\/challenge\.yml:5: warning: "module" is ctfcli's but Flagship does not use it; it is ignored \(1 challenge file has it; said once for the repository\)\.$/);
  }, 60_000);

  it("hand out files of one name in different folders as distinct files, named with their folder", async () => {
    const repo = await repository();
    await writeChallenge(repo, "misc/twins", "name: Twins\ncategory: Misc\nvalue: 10\nflags:\n  - flag{twins}\nfiles:\n  - dist/a/notes.txt\n  - dist/b/notes.txt\n  - dist/readme.txt\n", {
      "dist/a/notes.txt": "first notes",
      "dist/b/notes.txt": "second notes",
      "dist/readme.txt": "read me",
    });
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stderr]).toEqual([0, ""]);
    const player = (await createTeamWith(server!.world)).members[0]!.token;
    const files = (await challengesOf(player)).get("Twins").files as { name: string; url: string }[];
    expect(files.map((f) => f.name).sort()).toEqual(["a/notes.txt", "b/notes.txt", "readme.txt"]);
    const bodies = await Promise.all(files.map(async (f) => [f.name, await (await fetch(`${server!.url}${f.url}`, { headers: { authorization: `Token ${player}` } })).text()]));
    expect(Object.fromEntries(bodies)).toEqual({ "a/notes.txt": "first notes", "b/notes.txt": "second notes", "readme.txt": "read me" });

    await writeChallenge(repo, "misc/twins", "name: Twins\ncategory: Misc\nvalue: 10\nflags:\n  - flag{twins}\nfiles:\n  - dist/a/notes.txt\n  - dist/b/notes.txt\n  - dist/readme.txt\n", {
      "dist/b/notes.txt": "second notes, edited",
    });
    const edit = await flagship(server!, ["challenge", "sync", repo]);
    expect(edit.stdout).toContain('- removed file "b/notes.txt" from "Misc/Twins" (changed)');
    expect(edit.stdout).toContain('+ uploaded file "b/notes.txt" to "Misc/Twins"');
    expect(edit.stdout).not.toContain("a/notes.txt");
    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect(again.stdout.trim().split("\n").at(-1)).toBe("Nothing to change: 1 challenge(s) up to date.");
  }, 120_000);
});

describe("next and anonymized requirements", () => {
  it("sync next by name (the suggestion after a solve) and list a challenge locked with anonymize as an anonymous tile", async () => {
    const repo = await repository();
    await writeChallenge(repo, "intro/one", "name: Step One\ncategory: Intro\nvalue: 10\nnext: Step Two\nflags:\n  - flag{one}\n");
    await writeChallenge(
      repo,
      "intro/two",
      "name: Step Two\ncategory: Intro\ndescription: The second step.\nvalue: 20\nrequirements:\n  prerequisites:\n    - Step One\n  anonymize: true\nflags:\n  - flag{two}\n",
    );
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stderr]).toEqual([0, ""]);
    expect(sync.stdout).not.toMatch(/warning/);
    expect(sync.stdout).toContain('~ updated "Intro/Step One": next');
    const staff = await challengesOf(server!.token);
    expect(staff.get("Step One").next_challenge).toBe(staff.get("Step Two").id);

    const player = (await createTeamWith(server!.world)).members[0]!.token;
    const listed = (await api<Category[]>(server!.url, player, "GET", "/challenges/categories/")).find((c) => c.name === "Intro")!.challenges;
    const stub = listed.find((c) => c.id === staff.get("Step Two").id);
    expect(stub).toMatchObject({ unlocked: false });
    for (const key of ["name", "description", "score", "current_score", "author", "files", "hints"]) expect(stub).not.toHaveProperty(key);
    expect(listed.find((c) => c.id === staff.get("Step One").id)).toMatchObject({ name: "Step One", next_challenge: staff.get("Step Two").id });

    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect(again.stdout.trim().split("\n").at(-1)).toBe("Nothing to change: 2 challenge(s) up to date.");

    await writeChallenge(repo, "intro/one", "name: Step One\ncategory: Intro\nvalue: 10\nnext: Step Nine\nflags:\n  - flag{one}\n");
    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/intro\/one\/challenge\.yml:4: error: next: no challenge named "Step Nine" in the repository\./);
  }, 120_000);
});

describe("keyed hints that require other hints", () => {
  it("sync as ctfcli writes them: the inner hint opens only after the outer one, checked as a player", async () => {
    const repo = await repository();
    await writeChallenge(
      repo,
      "crypto/layers",
      "name: Layers\ncategory: Crypto\nvalue: 100\nflags:\n  - flag{layers}\nhints:\n  - key: outer\n    title: Outer layer\n    content: Base64 first.\n    cost: 10\n  - title: Inner layer\n    content: Then XOR.\n    cost: 20\n    requirements:\n      - outer\n",
    );
    const sync = await flagship(server!, ["challenge", "sync", repo]);
    expect([sync.code, sync.stderr]).toEqual([0, ""]);
    expect(sync.stdout).not.toMatch(/warning/);
    const staff = (await challengesOf(server!.token)).get("Layers");
    const [outer, inner] = [...staff.hints].sort((a: { id: number }, b: { id: number }) => a.id - b.id);
    expect(inner).toMatchObject({ name: "Inner layer", requirements: [outer.id] });

    const player = (await createTeamWith(server!.world)).members[0]!.token;
    const refused = await fetch(`${server!.url}/api/v2/hints/use/`, { method: "POST", headers: { authorization: `Token ${player}`, "content-type": "application/json" }, body: JSON.stringify({ id: inner.id }) });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { m: string }).m).toBe("hint_not_unlocked");
    expect(await api(server!.url, player, "POST", "/hints/use/", { id: outer.id })).toMatchObject({ text: "Base64 first." });
    expect(await api(server!.url, player, "POST", "/hints/use/", { id: inner.id })).toMatchObject({ text: "Then XOR." });

    const again = await flagship(server!, ["challenge", "sync", repo]);
    expect(again.stdout.trim().split("\n").at(-1)).toBe("Nothing to change: 1 challenge(s) up to date.");

    await writeChallenge(repo, "crypto/layers", "name: Layers\ncategory: Crypto\nvalue: 100\nflags:\n  - flag{layers}\nhints:\n  - content: Alone.\n    requirements: [nowhere]\n");
    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/crypto\/layers\/challenge\.yml:8: error: hints: no hint of "Layers" has the key \(or title\) "nowhere"\./);
  }, 120_000);
});
