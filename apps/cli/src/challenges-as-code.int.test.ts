import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTeamWith, type TestTeam } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBannerImage } from "../../worker/src/challenge-servers/test-image.ts";
import { api, flagship, type Server, startServer, stopServer, tempRepository, writeChallenge } from "./testing.ts";

/**
 * Challenges as code end to end: a repository of ten challenge files in three categories synced
 * by `npx flagship` (the real entry point) into a running server, played through the REST API,
 * synced again (nothing changes), edited (exactly that challenge changes), exported and synced
 * into an empty event (the same challenges come out).
 */
const RUN = `${process.pid}-${Date.now().toString(36)}`;

/** The repository: one folder per challenge, as CTFd's challenge repositories are laid out. */
async function writeRepository(root: string): Promise<void> {
  const challenge = (folder: string, yml: string, files: Record<string, string> = {}) => writeChallenge(root, folder, yml, files);
  await challenge(
    "warmup/sanity",
    `name: Sanity\ncategory: Warmup\nauthor: alice\ndescription: Submit flag{sanity}.\nvalue: 100\ntype: standard\nflags:\n  - flag{sanity}\nhints:\n  - It is in the description.\ntags: [easy]\n`,
  );
  await challenge(
    "warmup/shout",
    `name: Shout\ncategory: Warmup\ndescription: Any case will do.\nvalue: 100\nflags:\n  - type: static\n    content: flag{shout}\n    data: case_insensitive\nhints:\n  - content: Try capitals.\n    cost: 20\nrequirements:\n  - Sanity\n`,
  );
  await challenge("warmup/pattern", `name: Pattern\ncategory: Warmup\ndescription: Three digits.\nvalue: 150\nflags:\n  - type: regex\n    content: 'flag\\{[0-9]{3}\\}'\ntopics: [regex]\n`);
  await challenge(
    "crypto/many",
    `name: Many\ncategory: Crypto\ndescription: Several answers are right.\nattribution: After a classic\nvalue: 200\nattempts: 5\nconnection_info: nc 127.0.0.1 9\nflags:\n  - flag{one}\n  - flag{two}\n  - type: regex\n    content: 'flag\\{three-[a-z]+\\}'\nfiles:\n  - dist/cipher.txt\n`,
    { "dist/cipher.txt": "uryyb jbeyq\n" },
  );
  await challenge(
    "crypto/linear",
    `name: Linear\ncategory: Crypto\ndescription: Loses 100 points a solver.\ntype: dynamic\nextra:\n  initial: 500\n  decay: 100\n  minimum: 100\n  function: linear\nflags:\n  - flag{linear}\n`,
  );
  await challenge(
    "crypto/parabola",
    `name: Parabola\ncategory: Crypto\ndescription: CTFd's logarithmic curve.\ntype: dynamic\nextra:\n  initial: 500\n  decay: 4\n  minimum: 100\nflags:\n  - flag{parabola}\n`,
  );
  await challenge("crypto/secret", `name: Secret\ncategory: Crypto\ndescription: Not yet.\nvalue: 50\nstate: hidden\nflags:\n  - flag{secret}\n`);
  await challenge(
    "pwn/banner",
    `name: Banner\ncategory: Pwn\ndescription: Connect to it.\nvalue: 300\nimage: .\nflags:\n  - flag{banner}\nrequirements:\n  - Many\nflagship:\n  server:\n    name: banner-${RUN}\n    replicas: 1\n`,
    { Dockerfile: `FROM flagship-test/banner:2\nCOPY motd /motd\nEXPOSE 8000\n`, motd: "banner one\n" },
  );
  await challenge(
    "pwn/echo",
    `name: Echo\ncategory: Pwn\ndescription: One each.\nvalue: 300\nimage: ./server\nflags:\n  - flag{echo}\nflagship:\n  server:\n    name: echo-${RUN}\n    port: 8000\n    per_team: true\n    memory: 67108864\n`,
    { "server/Dockerfile": `FROM flagship-test/banner:2\nCOPY motd /motd\n`, "server/motd": "echo\n" },
  );
  await challenge(
    "pwn/files",
    `name: Handouts\ncategory: Pwn\ndescription: Two files.\nvalue: 120\nattempts: 3\nflags:\n  - flag{handouts}\nfiles:\n  - files/a.bin\n  - files/readme.md\n`,
    { "files/a.bin": "\u0000\u0001binary", "files/readme.md": "# Read me\n" },
  );
}

let server: Server | undefined;
let empty: Server | undefined;
let repo: string;
let exported: string;

beforeAll(async () => {
  buildBannerImage();
  repo = await tempRepository();
  exported = path.join(await mkdtemp(path.join(os.tmpdir(), "flagship-export-")), "out");
  await writeRepository(repo);
  server = await startServer();
}, 120_000);

afterAll(async () => {
  await stopServer(server);
  await stopServer(empty);
  await rm(repo, { recursive: true, force: true });
  await rm(path.dirname(exported), { recursive: true, force: true });
  const images = execFileSync("docker", ["images", "--format", "{{.Repository}}:{{.Tag}}"]).toString().split("\n").filter((i) => i.includes(RUN));
  if (images.length > 0) execFileSync("docker", ["rmi", "--force", ...images], { stdio: "ignore" });
}, 120_000);

type Category = { id: number; name: string; challenges: any[] };
const categoriesOf = (s: Server, token = s.token) => api<Category[]>(s.url, token, "GET", "/challenges/categories/");
const byName = (categories: Category[]) => new Map(categories.flatMap((c) => c.challenges.map((ch) => [ch.name, { ...ch, categoryName: c.name }])));

describe("flagship challenge sync", () => {
  let teams: TestTeam[];

  it("lints the repository and dry-runs without writing", async () => {
    const lint = await flagship(null, ["challenge", "lint", repo]);
    expect(lint.stdout).toContain("10 challenge file(s): 0 error(s), 0 warning(s).");
    expect(lint.code).toBe(0);

    const dry = await flagship(server!, ["challenge", "sync", repo, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would create challenge "Warmup/Sanity"');
    expect(dry.stdout).toMatch(/Dry run: .* nothing was written/);
    expect(await server!.world.services.db.challenge.count()).toBe(0);
  }, 120_000);

  it("creates every category, challenge, hint, file, unlock and challenge server", async () => {
    const run = await flagship(server!, ["challenge", "sync", repo]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Done: ");
    const db = server!.world.services.db;
    expect(await db.category.count()).toBe(3);
    expect(await db.challenge.count()).toBe(10);
    const challenges = byName(await categoriesOf(server!));
    const ids = Object.fromEntries([...challenges].map(([name, c]) => [name, c.id as number]));
    expect(challenges.get("Shout")).toMatchObject({ categoryName: "Warmup", unlock_requirements: String(ids.Sanity), hints: [{ name: "Hint 1", penalty: 20, text: "Try capitals." }] });
    expect(challenges.get("Banner")!.unlock_requirements).toBe(String(ids.Many));
    expect(challenges.get("Secret")!.hidden).toBe(true);
    expect(challenges.get("Many")).toMatchObject({ attempt_limit: 5, challenge_metadata: { connection_info: "nc 127.0.0.1 9", attribution: "After a classic" } });
    expect(challenges.get("Pattern")!.tags).toEqual([{ type: "topic", text: "regex" }]);
    expect(challenges.get("Handouts")!.files.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([
      ["a.bin", 8],
      ["readme.md", 10],
    ]);
    const jobs = await api<any[]>(server!.url, server!.token, "GET", "/challengeserver/jobs/");
    expect(jobs.map((j) => [j.challenge_id, j.port, j.dedicated, j.image.split(":")[0]]).sort()).toEqual(
      [
        [ids.Banner, 8000, false, `flagship-challenge/banner-${RUN}`],
        [ids.Echo, 8000, true, `flagship-challenge/echo-${RUN}`],
      ].sort(),
    );
    // Tagged in the local engine with the image's id.
    for (const job of jobs) expect(execFileSync("docker", ["image", "inspect", "--format", "{{.Id}}", job.image]).toString()).toContain(job.image.split(":")[1]);
  }, 180_000);

  it("is played through the REST API with the expected points and unlocks", async () => {
    const world = server!.world;
    teams = [await createTeamWith(world), await createTeamWith(world), await createTeamWith(world)];
    const challenges = byName(await categoriesOf(server!));
    const id = (name: string) => challenges.get(name)!.id as number;
    const submit = (team: TestTeam, name: string, flag: string) => api<{ correct: boolean }>(server!.url, team.members[0]!.token, "POST", "/challenges/submit_flag/", { challenge: id(name), flag });
    const [a, b, c] = teams as [TestTeam, TestTeam, TestTeam];

    const locked = await fetch(`${server!.url}/api/v2/challenges/submit_flag/`, {
      method: "POST",
      headers: { authorization: `Token ${b.members[0]!.token}`, "content-type": "application/json" },
      body: JSON.stringify({ challenge: id("Shout"), flag: "flag{shout}" }),
    });
    expect([locked.status, ((await locked.json()) as { m: string }).m]).toEqual([403, "challenge_not_unlocked"]);

    expect((await submit(a, "Sanity", "flag{sanity}")).correct).toBe(true);
    await api(server!.url, a.members[0]!.token, "POST", "/hints/use/", { id: challenges.get("Shout")!.hints[0].id });
    expect((await submit(a, "Shout", "FLAG{SHOUT}")).correct).toBe(true);
    expect((await submit(a, "Pattern", "flag{12a}")).correct).toBe(false);
    expect((await submit(a, "Pattern", "flag{123}")).correct).toBe(true);
    expect((await submit(a, "Many", "flag{two}")).correct).toBe(true);
    expect((await submit(b, "Many", "flag{three-abc}")).correct).toBe(true);
    expect((await submit(c, "Many", "flag{one}")).correct).toBe(true);
    for (const team of [a, b, c]) {
      expect((await submit(team, "Linear", "flag{linear}")).correct).toBe(true);
      expect((await submit(team, "Parabola", "flag{parabola}")).correct).toBe(true);
    }

    const seen = byName(await categoriesOf(server!, a.members[0]!.token));
    expect(seen.has("Secret")).toBe(false);
    expect(seen.get("Banner")!.unlocked).toBe(true);
    // CTFd's values after three solves: linear 500 - 2 * 100; logarithmic ceil(500 - 400 / 16 * 4).
    expect(seen.get("Linear")!.current_score).toBe(300);
    expect(seen.get("Parabola")!.current_score).toBe(400);
    const self = await api<{ points: number }>(server!.url, a.members[0]!.token, "GET", "/team/self/");
    // Sanity 100 + Shout 100 - 20 + Pattern 150 + Many 200 + Linear 300 + Parabola 400.
    expect(self.points).toBe(1230);
  }, 60_000);

  it("changes nothing when synced again", async () => {
    const db = server!.world.services.db;
    // Taking and giving back the sync's lease is audited (who synced, when); nothing else may be.
    const changesAudited = () => db.auditLog.count({ where: { action: { notIn: ["start_challenge_sync", "end_challenge_sync"] } } });
    const audit = await changesAudited();
    const maxId = (await db.challenge.aggregate({ _max: { id: true } }))._max.id;
    const updated = await db.challenge.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } });
    const run = await flagship(server!, ["challenge", "sync", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("Nothing to change: 10 challenge(s) up to date.");
    expect(await changesAudited()).toBe(audit);
    expect((await db.challenge.aggregate({ _max: { id: true } }))._max.id).toBe(maxId);
    expect(await db.challenge.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } })).toEqual(updated);
  }, 120_000);

  it("updates exactly the challenge whose file changed", async () => {
    const db = server!.world.services.db;
    const file = path.join(repo, "warmup/sanity/challenge.yml");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace("Submit flag{sanity}.", "Submit flag{sanity}, please.").replace("hints:\n", "hints:\n  - content: Costs a little.\n    cost: 5\n"));
    const before = await db.challenge.findMany({ where: { name: { not: "Sanity" } }, select: { id: true, updatedAt: true }, orderBy: { id: "asc" } });
    const run = await flagship(server!, ["challenge", "sync", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('updated "Warmup/Sanity": description');
    expect(run.stdout).toMatch(/Done: \d+ change\(s\) to 1 challenge\(s\)/);
    const sanity = byName(await categoriesOf(server!)).get("Sanity")!;
    expect(sanity.description).toBe("Submit flag{sanity}, please.");
    expect(sanity.hints.map((h: { name: string; penalty: number }) => [h.name, h.penalty])).toEqual([
      ["Hint 1", 5],
      ["Hint 2", 0],
    ]);
    expect(await db.challenge.findMany({ where: { name: { not: "Sanity" } }, select: { id: true, updatedAt: true }, orderBy: { id: "asc" } })).toEqual(before);
  }, 120_000);

  it("reports problems with file and line, and a bad token clearly", async () => {
    const broken = await mkdtemp(path.join(os.tmpdir(), "flagship-broken-"));
    try {
      await writeFile(path.join(broken, "challenge.yml"), "name: Broken\ncategory: Misc\nvalue: lots\nflags: [x]\n");
      const lint = await flagship(null, ["challenge", "lint", broken]);
      expect(lint.code).toBe(1);
      expect(lint.stdout).toMatch(/challenge\.yml:3: error: value: /);
      const sync = await flagship(server!, ["challenge", "sync", broken]);
      expect([sync.code, sync.stderr]).toEqual([1, expect.stringMatching(/challenge\.yml:3: error: value: [^\n]*\n1 problem\(s\); nothing was changed\./)]);
      const bad = await flagship({ ...server!, token: "0".repeat(64) }, ["challenge", "sync", repo]);
      expect([bad.code, bad.stderr]).toEqual([3, expect.stringMatching(/did not accept the token/)]);
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("flagship event export", () => {
  it("writes the event out so that a sync into an empty event makes the same challenges", async () => {
    const run = await flagship(server!, ["event", "export", exported]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Exported 10 challenge(s) in 3 categories");
    empty = await startServer();
    const sync = await flagship(empty, ["challenge", "sync", exported]);
    expect(sync.stderr).toBe("");
    expect(sync.code).toBe(0);

    const shape = async (s: Server) => {
      const challenges = byName(await categoriesOf(s));
      const names = new Map([...challenges.values()].map((c) => [String(c.id), c.name]));
      const jobs = await api<any[]>(s.url, s.token, "GET", "/challengeserver/jobs/");
      return [...challenges.values()]
        .map((c) => ({
          category: c.categoryName,
          name: c.name,
          description: c.description,
          author: c.author,
          score: c.score,
          points_type: c.points_type,
          flag_type: c.flag_type,
          flag_metadata: c.flag_metadata,
          hidden: c.hidden,
          attempt_limit: c.attempt_limit,
          tags: c.tags,
          metadata: { ...c.challenge_metadata, cserv_name: undefined },
          unlocks: c.unlock_requirements.replace(/\d+/g, (id: string) => names.get(id) ?? id),
          hints: c.hints.map((h: any) => [h.name, h.penalty, h.text]),
          files: c.files.map((f: any) => [f.name, f.size]),
          job: jobs.filter((j) => j.challenge_id === c.id).map((j) => [j.name, j.image, j.port, j.replicas, j.dedicated, j.resources]),
        }))
        .sort((x, y) => x.name.localeCompare(y.name));
    };
    expect(await shape(empty)).toEqual(await shape(server!));

    // The synced export is up to date; --prune deletes only what the repository made, never a challenge made by hand.
    const category = (await categoriesOf(empty)).find((c) => c.name === "Warmup")!;
    await api(empty.url, empty.token, "POST", "/challenges/", { category: category.id, name: "Made by hand", score: 10, flag_type: "plaintext", flag_metadata: { flag: "x" } });
    const pruned = await flagship(empty, ["challenge", "sync", exported, "--prune"]);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout.trim()).toBe("Nothing to change: 10 challenge(s) up to date.");
    expect(await empty.world.services.db.challenge.count()).toBe(11);
  }, 180_000);
});
