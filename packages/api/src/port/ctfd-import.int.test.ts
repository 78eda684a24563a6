import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPasswordReset } from "../auth/password-reset.ts";
import { login } from "../auth/login.ts";
import { flagMatches } from "../challenges/flag-match.ts";
import { requireStaff } from "../guards.ts";
import { buildCtfdArchive, type CtfdArchiveSpec, declareSize, renameMember, sampleCtfdEvent } from "../testing/ctfd-archive.ts";
import { contextFor, createTestWorld, createUser, TEST_PASSWORD, type TestUser, type TestWorld } from "../testing/index.ts";
import { teamLeaderboard } from "../leaderboard/leaderboard.ts";
import { type CtfdLimits, IMPORT_RUNNING, IMPORT_TOO_LONG, IMPORTED_PASSWORD, importCtfd } from "./ctfd-import.ts";

let world: TestWorld;
let staff: TestUser;
let dataDir: string;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  // An account here already has bob's name: the import leaves bob out.
  await createUser(world, { username: "bob" });
  dataDir = await mkdtemp(path.join(os.tmpdir(), "flagship-ctfd-"));
});
afterAll(async () => {
  await world.close();
  await rm(dataDir, { recursive: true, force: true });
});

const run = async (archive: Buffer, options: { dryRun?: boolean; players?: boolean; limits?: Partial<CtfdLimits>; timeout?: number } = {}) =>
  importCtfd(await requireStaff(contextFor(world, staff)), {
    dataDir,
    body: Readable.from([archive]),
    dryRun: options.dryRun ?? false,
    players: options.players ?? true,
    limits: options.limits,
    ...(options.timeout !== undefined && { timeout: options.timeout }),
  });

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: string; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error("expected a failure");
}

/** Everything an import could change, to show that a refusal or a dry run changed none of it. */
async function snapshot() {
  const db = world.services.db;
  const [categories, challenges, users, teams, solves, audits, stored, others] = await Promise.all([
    db.category.count(),
    db.challenge.count(),
    db.user.count(),
    db.team.count(),
    db.solve.count(),
    db.auditLog.count(),
    readdir(path.join(dataDir, "files")).catch(() => []),
    // Staging folders (and the upload in them) never outlive an import.
    readdir(dataDir).then((names) => names.filter((n) => n !== "files")),
  ]);
  return { categories, challenges, users, teams, solves, audits, stored, others };
}

const sample = sampleCtfdEvent();

describe("CTFd import: refusals", () => {
  const refused = async (archive: Buffer, message: string | RegExp, limits?: Partial<CtfdLimits>) => {
    const before = await snapshot();
    const failure = await failureOf(run(archive, { limits }));
    expect(failure.code).toBe("bad_request");
    expect(failure.message).toMatch(message);
    expect(await snapshot()).toEqual(before);
  };

  it("refuses what is not a zip, and a zip without CTFd's tables", async () => {
    await refused(Buffer.from("not a zip at all"), /^This is not a CTFd export/);
    await refused(await buildCtfdArchive({ tables: {}, extra: [] }), /It has no db\/challenges\.json\.$/);
  });

  it("refuses a member whose path escapes the archive: .., absolute, backslashes, and links", async () => {
    const name = "uploads/aaaa/xx.txt";
    const base = await buildCtfdArchive({ ...sample, uploads: { ...sample.uploads, "aaaa/xx.txt": "escape" } });
    await refused(renameMember(base, name, "../../../../etc/pwd"), 'The archive contains an unsafe path: "../../../../etc/pwd".');
    await refused(renameMember(base, name, "/uploads/aa/x.txt.."), 'The archive contains an unsafe path: "/uploads/aa/x.txt..".');
    await refused(renameMember(base, name, "uploads\\aaaa\\xx.txt"), 'The archive contains an unsafe path: "uploads\\aaaa\\xx.txt".');
    await refused(renameMember(base, name, "uploads/aaaa/../..x"), 'The archive contains an unsafe path: "uploads/aaaa/../..x".');
    const link = await buildCtfdArchive({ ...sample, extra: [{ name: "uploads/aaaa/link", body: "/etc/passwd", mode: 0o120777 }] });
    await refused(link, 'The archive may not contain links ("uploads/aaaa/link").');
    await refused(await buildCtfdArchive({ ...sample, extra: [{ name: "elsewhere/x.txt", body: "x" }] }), 'Unexpected entry in the archive: "elsewhere/x.txt".');
  });

  it("refuses an oversized member, a member that lies about its size, too many entries and too much in total", async () => {
    const big = await buildCtfdArchive({ ...sample, uploads: { ...sample.uploads, "bbbb/big.bin": Buffer.alloc(64 * 1024, 7) } });
    await refused(big, '"uploads/bbbb/big.bin" is larger than the limit of 0 MB.', { maxFileBytes: 32 * 1024 });
    // A zip bomb declares a small size: the bytes really inflated are what count.
    await refused(declareSize(big, "uploads/bbbb/big.bin", 100), '"uploads/bbbb/big.bin" does not decompress to the size its header gives: the archive is damaged or built to exhaust the server.');
    await refused(big, "The archive has more than 5 entries.", { maxEntries: 5 });
    await refused(big, "The archive's contents are larger than the limit of 0 MB.", { maxTotalBytes: 48 * 1024 });
    await refused(big, "The archive is larger than the limit of 0 MB.", { maxArchiveBytes: 1024 });
  });

  it("refuses a damaged archive with a reason, never a server error", async () => {
    const archive = await buildCtfdArchive(sample);
    // Cut short: the directory at the end of the zip is gone.
    await refused(archive.subarray(0, archive.length - 40), /^This is not a CTFd export/);
    // The compressed bytes of a table overwritten: inflating them fails, or the checksum does.
    const start = archive.indexOf(Buffer.from("db/challenges.json")) + "db/challenges.json".length;
    const damaged = Buffer.from(archive);
    damaged.fill(0xff, start + 10, start + 200);
    await refused(damaged, /^"db\/challenges\.json" (cannot be read: the archive is damaged|does not decompress to the size its header gives)/);
  });

  it("refuses a table that is not a CTFd table", async () => {
    await refused(await buildCtfdArchive({ tables: {}, extra: [{ name: "db/challenges.json", body: '{"rows": []}' }] }), 'db/challenges.json is not a CTFd table (an object with a "results" list of rows).');
    await refused(await buildCtfdArchive({ tables: {}, extra: [{ name: "db/challenges.json", body: "{nope" }] }), "db/challenges.json is not valid JSON.");
  });
});

describe("CTFd import: dry run, then import", () => {
  let archive: Buffer;
  beforeAll(async () => {
    archive = await buildCtfdArchive(sample);
  });

  it("a dry run reports what maps and what does not, and changes nothing", async () => {
    const before = await snapshot();
    const result = await run(archive, { dryRun: true });
    expect(await snapshot()).toEqual(before);
    expect(result.dry_run).toBe(true);
    expect(result.imported).toBeUndefined();
    expect(result.report.mode).toBe("teams");
    expect(result.report.mapped).toEqual({ categories: 3, challenges: 4, hidden: 1, flags: 5, regex: 3, hints: 2, tags: 2, files: 1, prerequisites: 1, decay: 1, users: 2, teams: 2, solves: 3 });
    const skipped = Object.fromEntries(result.report.skipped.map((s) => [`${s.kind}: ${s.reason}`, s.examples]));
    expect(skipped).toEqual({
      'challenge: Challenge type "multiple_choice" (a CTFd plugin) has no equivalent here.': ["Quiz"],
      "flag: The pattern does not work with RE2, the regex engine here: Flag patterns use RE2 syntax (no backreferences or lookaround), and this one does not compile: invalid named capture: `(?<=a)b`.": ["Behind"],
      "challenge: It has no flag that can be checked here.": ["Behind"],
      "next challenge: It names a challenge that is not imported, so none is suggested.": ["Shout then Quiz"],
      "hint: The hint has no text.": ["Shout"],
      "prerequisite: It names a challenge that is not imported, so it is dropped.": ["Pattern needs #99"],
      'file: Files of type "page" (pages, solutions) are not imported.': ["logo.png"],
      "file: The archive does not hold it (files kept outside CTFd's upload folder, such as on S3, are not in the export).": ["gone.txt"],
      "setting: CTFd's settings (event name, times, theme, pages) are set here in the admin pages.": ["2 settings"],
      "award: Awards have no equivalent here; the teams' totals leave them out.": ["Best write-up"],
      "hint unlock: Hints players opened are not carried over; their solves keep the full value.": [],
      "user: CTFd admins are not imported: give your organisers staff accounts here.": ["admin"],
      "user: An account here already has this username or email.": ["bob"],
      "solve: Its challenge is not imported.": ["Quiz by bob"],
    });
    expect(result.report.notes.join("\n")).toMatch(/“Forgot password\?”/);
  });

  it("imports in one transaction: nothing, not even a file, stays when a late step fails", async () => {
    const db = world.services.db;
    // A real failure at the last step (the solves), raised by the database itself.
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_solve() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no solves today'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_solve BEFORE INSERT ON solves FOR EACH ROW EXECUTE FUNCTION refuse_solve()`);
    const before = await snapshot();
    try {
      await expect(run(archive)).rejects.toThrow(/no solves today/);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_solve ON solves`);
      await db.$executeRawUnsafe(`DROP FUNCTION refuse_solve()`);
    }
    expect(await snapshot()).toEqual(before);
    expect(await readdir(path.join(dataDir, "files")).catch(() => [])).toEqual([]);
  });

  it("maps challenges, flags, hints, tags, files, prerequisites, decay, users, teams and solves", async () => {
    const result = await run(archive);
    expect(result.dry_run).toBe(false);
    expect(result.imported).toEqual({ categories: 3, challenges: 4, files: 1, users: 2, teams: 2, solves: 3 });
    const db = world.services.db;
    expect(await db.auditLog.count({ where: { action: "import_ctfd" } })).toBe(1);
    const categories = await db.category.findMany({
      orderBy: { displayOrder: "asc" },
      include: { challenges: { orderBy: { id: "asc" }, include: { hints: { orderBy: { id: "asc" } }, tags: true, files: true } } },
    });
    expect(categories.map((c) => [c.name, c.challenges.map((ch) => ch.name)])).toEqual([
      ["Misc", ["Warmup"]],
      ["Crypto", ["Shout", "Pattern"]],
      ["Web", ["Falling"]],
    ]);
    type Row = (typeof categories)[number]["challenges"][number];
    const [warmup, shout, pattern, falling] = categories.flatMap((c) => c.challenges) as [Row, Row, Row, Row];

    expect(warmup.description).toBe("Say hello.\n\n**Connection:**\n\n```\nnc warmup.example 1337\n```");
    expect([warmup.flagType, warmup.flagMetadata]).toEqual(["plaintext", { flag: "flag{hello}" }]);
    expect(warmup.hints.map((h) => [h.name, h.penalty, h.text])).toEqual([
      ["Hint 1", 10, "Look closer."],
      ["Hint 2", 20, "Closer still."],
    ]);
    // The second hint required the first in CTFd; here too, by the imported hint's id.
    expect(warmup.hints.map((h) => h.requirements)).toEqual([[], [warmup.hints[0]!.id]]);
    expect(warmup.tags.map((t) => t.text)).toEqual(["easy"]);
    expect(warmup.files).toHaveLength(1);
    const file = warmup.files[0]!;
    expect([file.name, Number(file.size)]).toEqual(["notes.txt", 7]);
    const [, , key, name] = file.url.split("/");
    expect(await readFile(path.join(dataDir, "files", key!, decodeURIComponent(name!)), "utf8")).toBe("read me");
    // Only the file a challenge uses is stored; staging is gone.
    expect(await readdir(path.join(dataDir, "files"))).toEqual([key]);
    expect((await readdir(dataDir)).sort()).toEqual(["files"]);

    expect([shout.flagType, shout.attemptLimit]).toEqual(["regex", 5]);
    const shoutMeta = shout.flagMetadata as Record<string, unknown>;
    expect(flagMatches("regex", shoutMeta, "FLAG{loud.ISH}", "flag")).toBe(true);
    expect(flagMatches("regex", shoutMeta, "flag{loudxish}", "flag")).toBe(false);
    expect(shout.hints).toEqual([]);

    expect(pattern.flagType).toBe("regex");
    expect(flagMatches("regex", pattern.flagMetadata as Record<string, unknown>, "flag{123}", "flag")).toBe(true);
    expect(flagMatches("regex", pattern.flagMetadata as Record<string, unknown>, "flag{12a}", "flag")).toBe(false);
    expect(pattern.unlockRequirements).toBe(String(warmup.id));
    // CTFd's next challenge, linked to the imported one; one left out suggests none.
    expect([warmup.nextChallengeId, shout.nextChallengeId]).toEqual([pattern.id, null]);

    expect([falling.hidden, falling.pointsType, falling.score]).toEqual([true, "decay", 500]);
    expect(falling.flagMetadata).toEqual({ flag: "(?:flag\\{falling\\})|(?:flag\\{also-falling\\})", min_points: 100, decay_function: "logarithmic", decay: 10 });
    expect(flagMatches("regex", falling.flagMetadata as Record<string, unknown>, "flag{also-falling}", "flag")).toBe(true);

    const teams = await db.team.findMany({ where: { name: { in: ["Red", "Blue"] } }, include: { members: { select: { id: true, username: true } }, owner: { select: { username: true } } }, orderBy: { id: "asc" } });
    expect(teams.map((t) => [t.name, t.owner?.username, t.members.map((m) => m.username)])).toEqual([
      ["Red", "alice", ["alice"]],
      ["Blue", "carol", ["carol"]],
    ]);
    expect(teams.map((t) => t.points)).toEqual([50, 550]);
    const alice = await db.user.findUniqueOrThrow({ where: { username: "alice" } });
    expect([alice.passwordHash, alice.emailVerified, alice.dateJoined.toISOString()]).toEqual([IMPORTED_PASSWORD, true, "2024-05-01T10:00:00.000Z"]);
    const solves = await db.solve.findMany({ where: { challengeId: { in: [warmup.id, falling.id] } }, orderBy: { timestamp: "asc" }, include: { team: { select: { name: true } } } });
    expect(solves.map((s) => [s.team.name, s.challengeId, s.points, s.firstBlood, s.timestamp.toISOString()])).toEqual([
      ["Red", warmup.id, 50, true, "2024-05-02T12:00:00.000Z"],
      ["Blue", warmup.id, 50, false, "2024-05-02T12:30:00.000Z"],
      // Hidden in CTFd: carried over, but no first blood.
      ["Blue", falling.id, 500, false, "2024-05-02T13:00:00.000Z"],
    ]);

    // An imported account cannot log in until its owner sets a password through the mailed link.
    const anonymous = contextFor(world, null);
    await expect(login(anonymous, { username: "alice", password: TEST_PASSWORD })).rejects.toMatchObject({ code: expect.any(String) });
    await requestPasswordReset(anonymous, { email: "alice@ctfd.example" });
    const mail = await db.outboxMail.findFirstOrThrow({ where: { to: "alice@ctfd.example" } });
    expect(mail.text).toMatch(/password/i);
  });

  it("a second import of the same archive leaves the taken players out and adds the challenges again", async () => {
    const result = await run(archive, { dryRun: true });
    expect(result.report.mapped.users).toBe(0);
    expect(result.report.mapped.teams).toBe(0);
    expect(result.report.mapped.challenges).toBe(4);
    const challengesOnly = await run(await buildCtfdArchive(sample as CtfdArchiveSpec), { dryRun: true, players: false });
    expect(challengesOnly.report.players).toBe(false);
    expect(challengesOnly.report.notes).toContain("Players were left out: 4 user(s), 2 team(s) and 4 solve(s) are in the archive.");
  });
});

describe("CTFd import: memory, concurrency, time and the standings", () => {
  it("caps the tables together, and never reads submissions when players are left out", async () => {
    const big = { ...sample, tables: { ...sample.tables, submissions: Array.from({ length: 400 }, (_, i) => ({ id: 100 + i, type: "incorrect", provided: "x".repeat(40), date: "2024-05-02T12:00:00" })) } };
    const archive = await buildCtfdArchive(big as CtfdArchiveSpec);
    const submissionsSize = Buffer.byteLength(JSON.stringify({ count: 400, results: big.tables.submissions, meta: {} }));
    // The submissions table alone is over the per-table limit: with players left out it is not read.
    const limits = { maxManifestBytes: submissionsSize - 1000 };
    const challengesOnly = await run(archive, { dryRun: true, players: false, limits });
    expect(challengesOnly.report.mapped.challenges).toBe(4);
    expect((await failureOf(run(archive, { dryRun: true, players: true, limits }))).message).toMatch(/^"db\/submissions\.json" is larger than the limit/);
    // Every table fits alone, not all together.
    const before = await snapshot();
    const together = await failureOf(run(archive, { players: true, limits: { maxTablesBytes: submissionsSize + 500 } }));
    expect(together).toEqual({ code: "bad_request", message: "The archive's tables (db/) are larger than the limit of 0 MB together." });
    expect(await snapshot()).toEqual(before);
  });

  it("answers at once that another import is running, and changes nothing", async () => {
    const archive = await buildCtfdArchive(sampleCtfdEvent("locked-"));
    const before = await snapshot();
    await world.services.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('flagship:import_event'))`;
      expect(await failureOf(run(archive))).toEqual({ code: "bad_request", message: IMPORT_RUNNING });
    });
    expect(await snapshot()).toEqual(before);
  });

  it("answers a transaction that ran out of time with a reason, not a server error", async () => {
    const archive = await buildCtfdArchive(sampleCtfdEvent("slow-"));
    const before = await snapshot();
    expect(await failureOf(run(archive, { timeout: 1 }))).toEqual({ code: "bad_request", message: IMPORT_TOO_LONG });
    expect(await snapshot()).toEqual(before);
  });

  it("moves the standings at once (as a solve does), and audits the players choice and who was created", async () => {
    const ctx = contextFor(world, staff);
    const names = async () => {
      const page = await teamLeaderboard(ctx, { limit: 100, offset: 0 });
      return "hidden" in page ? [] : page.results.map((r) => r.name);
    };
    expect(await names()).not.toContain("board-Red");
    const result = await run(await buildCtfdArchive(sampleCtfdEvent("board-")));
    expect(result.imported).toMatchObject({ users: 3, teams: 2, solves: 3 });
    expect(await names()).toEqual(expect.arrayContaining(["board-Red", "board-Blue"]));
    const audit = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "import_ctfd" }, orderBy: { id: "desc" } });
    const users = await world.services.db.user.findMany({ where: { username: { startsWith: "board-" } }, select: { id: true } });
    const teams = await world.services.db.team.findMany({ where: { name: { startsWith: "board-" } }, select: { id: true } });
    expect(audit.extra).toMatchObject({ players: true, users: 3, teams: 2 });
    const data = audit.extra as { userIds: number[]; teamIds: number[] };
    expect([...data.userIds].sort()).toEqual(users.map((u) => u.id).sort());
    expect([...data.teamIds].sort()).toEqual(teams.map((t) => t.id).sort());
  });
});
