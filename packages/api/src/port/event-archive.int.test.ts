import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { gunzipSync, gzipSync } from "node:zlib";
import tar from "tar-stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requireStaff } from "../guards.ts";
import { storeUpload } from "../challenges/file-storage.ts";
import { callerFor, contextFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { type ArchiveLimits, exportEventArchive, importEventArchive } from "./event-archive.ts";

interface Side {
  world: TestWorld;
  staff: TestUser;
  dataDir: string;
}

async function side(): Promise<Side> {
  const world = await createTestWorld();
  const staff = await createUser(world, { isStaff: true });
  await callerFor(world, staff).config.set({ key: "experiments", value: { importEntire: true } });
  return { world, staff, dataDir: await mkdtemp(path.join(os.tmpdir(), "flagship-archive-")) };
}

async function close(s: Side): Promise<void> {
  await s.world.close();
  await rm(s.dataDir, { recursive: true, force: true });
}

const staffCtx = (s: Side) => requireStaff(contextFor(s.world, s.staff));

async function exportOf(s: Side): Promise<Buffer> {
  const archive = await exportEventArchive(await staffCtx(s), { dataDir: s.dataDir });
  expect(archive.filename).toBe("flagship-event.tar.gz");
  return buffer(archive.stream);
}

async function importInto(s: Side, archive: Buffer, limits?: Partial<ArchiveLimits>) {
  return importEventArchive(await staffCtx(s), { dataDir: s.dataDir, body: Readable.from([archive]), limits });
}

/** Every entry of a .tar.gz: name to bytes, in archive order. */
async function entriesOf(archive: Buffer): Promise<Map<string, Buffer>> {
  const extract = tar.extract();
  const entries = new Map<string, Buffer>();
  Readable.from([gunzipSync(archive)]).pipe(extract);
  for await (const entry of extract) entries.set(entry.header.name, await buffer(entry));
  return entries;
}

type RawEntry = { name: string; body?: string | Buffer; type?: "file" | "symlink" | "link" | "directory" | "fifo"; linkname?: string };

/** A hand-made archive, as an attacker would build it. */
async function archiveOf(entries: RawEntry[], gzip = true): Promise<Buffer> {
  const pack = tar.pack();
  const done = buffer(pack);
  for (const entry of entries) {
    const body = typeof entry.body === "string" ? Buffer.from(entry.body) : (entry.body ?? Buffer.alloc(0));
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: entry.name, type: entry.type ?? "file", linkname: entry.linkname, size: body.length }, body, (error) => (error ? reject(error) : resolve())),
    );
  }
  pack.finalize();
  const tarBytes = await done;
  return gzip ? gzipSync(tarBytes) : tarBytes;
}

const manifest = (extra: Record<string, unknown> = {}) => JSON.stringify({ version: 1, config: { event_name: "Hand made" }, categories: [], ...extra });

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; message: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: string; message: string; details: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
  throw new Error("expected a failure");
}

const RELEASE = "2032-07-08T09:10:11.000Z";
let source: Side;
let target: Side;
let uploadedUrl: string;

beforeAll(async () => {
  [source, target] = await Promise.all([side(), side()]);
  const caller = callerFor(source.world, source.staff);
  await caller.config.setMany({ event_name: "Moved CTF", flag_prefix: "moved", team_size: 4 });
  const stored = await storeUpload(await staffCtx(source), { dataDir: source.dataDir, name: "disk image.bin", body: Readable.from([Buffer.from("\u0000\u0001binary bytes\u00ff")]) });
  uploadedUrl = stored.url;
  const challenge = (id: number, extra: Record<string, unknown> = {}) => ({
    id,
    name: `Challenge ${id}`,
    description: `Solve **${id}**`,
    challenge_type: "default",
    challenge_metadata: { x: id, y: 0 },
    flag_type: "plaintext",
    author: "sam",
    score: 100 + id,
    unlocks: [],
    flag_metadata: { flag: `flag{${id}}` },
    hints: [{ name: `Hint ${id}`, penalty: 5, text: `text ${id}` }],
    files: [],
    tags: ["web"],
    ...extra,
  });
  await caller.port.importCategory({
    name: "Forensics",
    contained_type: "campaign",
    description: "Dig.",
    metadata: { category_slug: "forensics" },
    challenges: [
      challenge(1, {
        files: [stored, { name: "elsewhere.txt", url: "https://example.com/elsewhere.txt", size: 3 }],
        hints: [
          { name: "Hint 1", penalty: 5, text: "text 1" },
          { name: "Hint 1b", penalty: 7, text: "after text 1", requirements: [0] },
        ],
      }),
      challenge(2, { unlock_requirements: "1", hidden: true, attempt_limit: 3, next_challenge: 1 }),
    ],
  });
  const web = await caller.port.importCategory({ name: "Web", contained_type: "jeopardy", description: "", challenges: [challenge(3, { flag_type: "hashed", flag_metadata: { flag: "a".repeat(64) }, scheduled_at: RELEASE })] });
  // A suggestion across categories, which only a whole-event file can carry.
  const ids = new Map((await source.world.services.db.challenge.findMany({ select: { id: true, name: true } })).map((c) => [c.name, c.id]));
  await caller.challenges.update({ id: ids.get("Challenge 3")!, patch: { next_challenge: ids.get("Challenge 2")! } });
  expect(web.challenges).toBe(1);
});
afterAll(async () => {
  await Promise.all([close(source), close(target)]);
});

describe("whole-event archive", () => {
  it("round-trips exactly: export, import into an empty event, export again gives the same contents, files included", async () => {
    const original = await exportOf(source);
    const entries = await entriesOf(original);
    const [key, name] = uploadedUrl.split("/").slice(2) as [string, string];
    expect([...entries.keys()]).toEqual(["event.json", `files/${key}/${decodeURIComponent(name)}`]);
    expect(entries.get(`files/${key}/disk image.bin`)!.toString()).toBe("\u0000\u0001binary bytes\u00ff");
    const event = JSON.parse(entries.get("event.json")!.toString()) as {
      config: Record<string, unknown>;
      categories: { name: string; challenges: { id: number; unlocks: number[]; unlock_requirements: string; hints: unknown[]; files: unknown[] }[] }[];
    };
    expect(event.config).toMatchObject({ event_name: "Moved CTF", flag_prefix: "moved", team_size: 4, experiments: { importEntire: true } });
    const [first, second] = event.categories[0]!.challenges;
    expect(first!.unlocks).toEqual([second!.id]);
    expect(second!.unlock_requirements).toBe(String(first!.id));
    expect(first!.hints).toEqual([
      { name: "Hint 1", penalty: 5, text: "text 1", requirements: [] },
      { name: "Hint 1b", penalty: 7, text: "after text 1", requirements: [0] },
    ]);
    // The next challenge by its id in the file (the ids are renumbered 1..n), across categories too.
    const third = event.categories[1]!.challenges[0]!;
    expect(second).toMatchObject({ next_challenge: first!.id, scheduled_at: null });
    expect(third).toMatchObject({ next_challenge: second!.id, scheduled_at: RELEASE });
    expect(first!.files).toEqual([
      { name: "disk image.bin", url: uploadedUrl, size: 16 },
      { name: "elsewhere.txt", url: "https://example.com/elsewhere.txt", size: 3 },
    ]);

    expect(await importInto(target, original)).toEqual({ categories: 2, challenges: 3, files: 1 });
    // The file is in the target's storage under the same key, so its URL works there.
    expect(await readFile(path.join(target.dataDir, "files", key, "disk image.bin"), "utf8")).toBe("\u0000\u0001binary bytes\u00ff");
    expect(await readdir(target.dataDir)).toEqual(["files"]);
    expect(await target.world.services.config.get("event_name")).toBe("Moved CTF");
    // The links point at the imported records.
    const rows = await target.world.services.db.challenge.findMany({ select: { id: true, name: true, nextChallengeId: true, scheduledAt: true, hints: { select: { id: true, requirements: true }, orderBy: { id: "asc" } } } });
    const imported = new Map(rows.map((r) => [r.name, r]));
    expect(imported.get("Challenge 2")!.nextChallengeId).toBe(imported.get("Challenge 1")!.id);
    expect(imported.get("Challenge 3")).toMatchObject({ nextChallengeId: imported.get("Challenge 2")!.id, scheduledAt: new Date(RELEASE) });
    const [hint1, hint1b] = imported.get("Challenge 1")!.hints;
    expect(hint1b!.requirements).toEqual([hint1!.id]);
    const again = await entriesOf(await exportOf(target));
    expect([...again.keys()]).toEqual([...entries.keys()]);
    for (const [entry, bytes] of entries) expect(again.get(entry)!.equals(bytes), entry).toBe(true);

    for (const [s, action] of [
      [source, "export_event"],
      [target, "import_event"],
    ] as const) {
      expect(await s.world.services.db.auditLog.count({ where: { action, userId: s.staff.id } })).toBeGreaterThan(0);
    }
  });

  it("imports only into an empty event, and changes nothing otherwise", async () => {
    const archive = await exportOf(source);
    const before = await source.world.services.db.challenge.count();
    await callerFor(source.world, source.staff).config.set({ key: "event_name", value: "Still here" });
    expect(await failureOf(importInto(source, archive))).toMatchObject({ code: "bad_request", message: "Events can only be imported into an empty event: remove every category first." });
    expect(await source.world.services.db.challenge.count()).toBe(before);
    expect(await source.world.services.config.get("event_name")).toBe("Still here");
    expect((await readdir(source.dataDir)).sort()).toEqual(["files"]);
    await callerFor(source.world, source.staff).config.set({ key: "event_name", value: "Moved CTF" });
  });

  it("needs the importEntire experiment", async () => {
    const s = await side();
    try {
      await callerFor(s.world, s.staff).config.set({ key: "experiments", value: {} });
      expect((await failureOf(exportOf(s))).code).toBe("permission_denied");
      expect((await failureOf(importInto(s, await archiveOf([{ name: "event.json", body: manifest() }])))).code).toBe("permission_denied");
    } finally {
      await close(s);
    }
  });
});

const key = "0123456789abcdef0123456789abcdef";
const withFile = (name: string, url = `/files/${key}/${encodeURIComponent(name)}`) =>
  manifest({
    categories: [
      {
        name: "C",
        contained_type: "jeopardy",
        description: "",
        challenges: [
          {
            id: 1,
            name: "One",
            description: "",
            challenge_type: "default",
            challenge_metadata: {},
            flag_type: "plaintext",
            author: "",
            score: 1,
            unlocks: [],
            flag_metadata: { flag: "flag{1}" },
            hints: [],
            files: [{ name, url, size: 4 }],
          },
        ],
      },
    ],
  });

describe("reading an archive safely", () => {
  let empty: Side;
  beforeAll(async () => {
    empty = await side();
  });
  afterAll(() => close(empty));
  // Every refusal leaves the event empty, the configuration untouched and no file behind.
  afterEach(async () => {
    expect(await empty.world.services.db.category.count()).toBe(0);
    expect(await empty.world.services.config.get("event_name")).toBe("Flagship CTF");
    expect(await readdir(empty.dataDir)).toEqual([]);
  });

  it("accepts a minimal hand-made archive (the control for the refusals below)", async () => {
    const s = await side();
    try {
      expect(await importInto(s, await archiveOf([{ name: "event.json", body: withFile("a.txt") }, { name: `files/${key}/a.txt`, body: "abcd" }]))).toEqual({ categories: 1, challenges: 1, files: 1 });
      expect(await readFile(path.join(s.dataDir, "files", key, "a.txt"), "utf8")).toBe("abcd");
    } finally {
      await close(s);
    }
  });

  it.each([
    ["../escape.txt", "The archive contains an unsafe path: \"../escape.txt\"."],
    [`files/${key}/../../../escape.txt`, `The archive contains an unsafe path: "files/${key}/../../../escape.txt".`],
    ["/etc/passwd", 'The archive contains an unsafe path: "/etc/passwd".'],
    ["C:/windows/x", 'The archive contains an unsafe path: "C:/windows/x".'],
    ["files\\..\\x", 'The archive contains an unsafe path: "files\\..\\x".'],
  ])("refuses the path %s", async (name, message) => {
    const archive = await archiveOf([{ name: "event.json", body: manifest() }, { name, body: "evil" }]);
    expect(await failureOf(importInto(empty, archive))).toEqual({ code: "bad_request", message, details: "" });
    expect(await readdir(path.dirname(empty.dataDir))).not.toContain("escape.txt");
  });

  it("refuses symbolic and hard links, and anything but files and folders", async () => {
    for (const type of ["symlink", "link"] as const) {
      const archive = await archiveOf([{ name: "event.json", body: manifest() }, { name: `files/${key}/a.txt`, type, linkname: "/etc/passwd" }]);
      expect(await failureOf(importInto(empty, archive))).toMatchObject({ message: `The archive may not contain links ("files/${key}/a.txt").` });
    }
    const fifo = await archiveOf([{ name: "event.json", body: manifest() }, { name: `files/${key}/a.txt`, type: "fifo" }]);
    expect(await failureOf(importInto(empty, fifo))).toMatchObject({ message: `The archive may only contain regular files ("files/${key}/a.txt").` });
  });

  it("refuses entries it does not expect", async () => {
    const archive = await archiveOf([{ name: "event.json", body: manifest() }, { name: "notes.txt", body: "hi" }]);
    expect(await failureOf(importInto(empty, archive))).toMatchObject({ message: 'Unexpected entry in the archive: "notes.txt".' });
    const twice = await archiveOf([
      { name: "event.json", body: manifest() },
      { name: "event.json", body: manifest() },
    ]);
    expect(await failureOf(importInto(empty, twice))).toMatchObject({ message: "The archive contains event.json twice." });
  });

  it("enforces the size and entry limits", async () => {
    const archive = await archiveOf([{ name: "event.json", body: withFile("a.txt") }, { name: `files/${key}/a.txt`, body: "x".repeat(2048) }]);
    expect(await failureOf(importInto(empty, archive, { maxFileBytes: 1024 }))).toMatchObject({ message: `"files/${key}/a.txt" is larger than the limit of 0 MB.` });
    expect(await failureOf(importInto(empty, archive, { maxTotalBytes: 2000 }))).toMatchObject({ message: "The archive's contents are larger than the limit of 0 MB." });
    expect(await failureOf(importInto(empty, archive, { maxManifestBytes: 10 }))).toMatchObject({ message: "event.json is larger than the limit of 0 MB." });
    expect(await failureOf(importInto(empty, archive, { maxEntries: 1 }))).toMatchObject({ message: "The archive has more than 1 entries." });
    expect(await failureOf(importInto(empty, archive, { maxArchiveBytes: 100 }))).toMatchObject({ message: "The archive is larger than the limit of 0 MB." });
    // A gzip bomb: a little compressed, a lot once inflated.
    const bomb = await archiveOf([{ name: "event.json", body: manifest() }, { name: `files/${key}/a.txt`, body: Buffer.alloc(8 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await failureOf(importInto(empty, bomb, { maxTotalBytes: 1024 * 1024 }))).toMatchObject({ message: "The archive's contents are larger than the limit of 1 MB." });
  });

  it("refuses garbage, bad JSON and invalid event data with a clear message", async () => {
    expect(await failureOf(importInto(empty, Buffer.from("definitely not an archive")))).toMatchObject({
      code: "bad_request",
      message: "This is not an event archive (a .tar.gz file exported by Flagship), or it is damaged.",
    });
    expect(await failureOf(importInto(empty, await archiveOf([{ name: "event.json", body: manifest() }], false)))).toMatchObject({ code: "bad_request" });
    expect(await failureOf(importInto(empty, gzipSync(Buffer.from("x".repeat(5000)))))).toMatchObject({ code: "bad_request" });
    expect(await failureOf(importInto(empty, await archiveOf([{ name: "event.json", body: "{not json" }])))).toMatchObject({ message: "event.json: Failed to parse JSON." });
    const invalid = await failureOf(importInto(empty, await archiveOf([{ name: "event.json", body: JSON.stringify({ version: 1, config: { flag_prefix: "has space" }, categories: [] }) }])));
    expect(invalid).toMatchObject({ code: "invalid", message: "Invalid event data.", details: { "config.flag_prefix": [expect.any(String)] } });
    expect(await failureOf(importInto(empty, await archiveOf([{ name: `files/${key}/a.txt`, body: "abcd" }])))).toMatchObject({ message: "The archive has no event.json." });
  });

  it("matches the challenges' stored files with the archive's files one to one", async () => {
    const missing = await archiveOf([{ name: "event.json", body: withFile("a.txt") }]);
    expect(await failureOf(importInto(empty, missing))).toMatchObject({ message: 'The archive lacks the file "a.txt" of the challenge "One".' });
    const extra = await archiveOf([{ name: "event.json", body: manifest() }, { name: `files/${key}/a.txt`, body: "abcd" }]);
    expect(await failureOf(importInto(empty, extra))).toMatchObject({ message: `"files/${key}/a.txt" is not a file of any challenge.` });
    const two = await archiveOf([{ name: "event.json", body: withFile("a.txt") }, { name: `files/${key}/a.txt`, body: "abcd" }, { name: `files/${key}/b.txt`, body: "abcd" }]);
    expect(await failureOf(importInto(empty, two))).toMatchObject({ message: `The archive contains two files under "files/${key}".` });
  });

  it("refuses text the database cannot hold (NUL) before writing anything", async () => {
    const broken = withFile("a.txt").replace('"description":""', '"description":"bad \\u0000 byte"');
    expect(broken).toContain("\\u0000");
    expect(await failureOf(importInto(empty, await archiveOf([{ name: "event.json", body: broken }, { name: `files/${key}/a.txt`, body: "abcd" }])))).toMatchObject({
      code: "invalid",
      message: "Null characters are not allowed.",
    });
  });
});

describe("a failure while writing", () => {
  it("rolls everything back and removes the files it had already placed", async () => {
    const s = await side();
    try {
      const other = "fedcba9876543210fedcba9876543210";
      // Storage already holds a different file under the second file's key.
      const taken = await storeUpload(await staffCtx(s), { dataDir: s.dataDir, name: "b.txt", body: Readable.from([Buffer.from("other bytes")]) });
      const takenKey = taken.url.split("/")[2]!;
      const event = JSON.parse(withFile("a.txt")) as { categories: { challenges: { files: unknown[] }[] }[] };
      event.categories[0]!.challenges[0]!.files.push({ name: "b.txt", url: `/files/${takenKey}/b.txt`, size: 4 });
      event.categories[0]!.challenges[0]!.files[0] = { name: "a.txt", url: `/files/${other}/a.txt`, size: 4 };
      const archive = await archiveOf([
        { name: "event.json", body: JSON.stringify(event) },
        { name: `files/${other}/a.txt`, body: "abcd" },
        { name: `files/${takenKey}/b.txt`, body: "abcd" },
      ]);
      expect(await failureOf(importInto(s, archive))).toMatchObject({ code: "bad_request", message: `Storage already holds a different file under the key ${takenKey}.` });
      expect(await readdir(path.join(s.dataDir, "files"))).toEqual([takenKey]);
      expect(await readFile(path.join(s.dataDir, "files", takenKey, "b.txt"), "utf8")).toBe("other bytes");
      expect(await readdir(s.dataDir)).toEqual(["files"]);
      expect(await s.world.services.db.category.count()).toBe(0);
      expect(await s.world.services.config.get("event_name")).toBe("Flagship CTF");
    } finally {
      await close(s);
    }
  });
});
