import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, contextFor, createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld } from "../testing/index.ts";
import { COUNT_CAP, exportCutNote, exportSubmissionsCsv } from "./submissions.ts";

/**
 * The submissions log paged by key over rows written straight to the tables: every page of a walk
 * along next_cursor, put together, is the whole filtered log in order (newest first, a solve before
 * a wrong flag of the same time, then the higher id), with many rows sharing a time, under each
 * filter, and while new rows arrive on top; the count stops at its cap; the export at its own.
 */

let world: TestWorld;
let staff: TestUser;
let teams: TestTeam[];
let challenges: number[];

type Expected = { key: string; time: number; team: number; user: number; challenge: number; correct: boolean };
const rows: Expected[] = [];
const BASE = Date.UTC(2026, 10, 20, 12, 0, 0);

/** Writes a solve or wrong flag at `time` (ms after BASE) and remembers where the log should show it. */
async function write(kind: "s" | "a", team: TestTeam, member: number, challenge: number, time: number): Promise<void> {
  const { db } = world.services;
  const data = { teamId: team.id, userId: team.members[member]!.id, challengeId: challenge, timestamp: new Date(BASE + time), ip: "10.0.0.1" };
  const id = kind === "s" ? (await db.solve.create({ data: { ...data, points: 10, flag: "flag{right}" } })).id : (await db.incorrectAttempt.create({ data: { ...data, flag: `flag{wrong-${time}}` } })).id;
  rows.push({ key: `${kind}${id}`, time: BASE + time, team: data.teamId, user: data.userId, challenge, correct: kind === "s" });
}

/** The log's order: newest first, a solve before a wrong flag of the same time, then the higher id. */
const ordered = (list: Expected[]) =>
  [...list].sort((x, y) => y.time - x.time || (x.key[0] === y.key[0] ? Number(y.key.slice(1)) - Number(x.key.slice(1)) : x.key[0] === "s" ? -1 : 1)).map((r) => r.key);

type Filter = { team?: number; user?: number; challenge?: number; correct?: boolean };
const passes = (f: Filter) => (r: Expected) =>
  (f.team === undefined || r.team === f.team) && (f.user === undefined || r.user === f.user) && (f.challenge === undefined || r.challenge === f.challenge) && (f.correct === undefined || r.correct === f.correct);

/** Every page of the filtered log along next_cursor, `limit` at a time, calling `between` after each page. */
async function walk(filter: Filter, limit: number, between?: (page: number) => Promise<void>): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 500; page++) {
    const answer = await callerFor(world, staff).moderation.submissions({ ...filter, limit, cursor });
    expect(answer.results.length).toBeLessThanOrEqual(limit);
    if (page > 0) expect(answer.count).toBeNull();
    keys.push(...answer.results.map((s) => s.key));
    if (answer.next_cursor === null) return keys;
    expect(answer.results).toHaveLength(limit);
    cursor = answer.next_cursor;
    await between?.(page);
  }
  throw new Error("the walk did not end");
}

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  teams = [await createTeamWith(world, 2), await createTeamWith(world, 2), await createTeamWith(world, 1)];
  const category = (await createCategory(world)).id;
  challenges = [];
  for (let i = 0; i < 5; i++) challenges.push((await createChallenge(world, category)).id);
  // Seven distinct times for ~150 rows: most rows share their time with others, solves with wrong flags.
  let n = 0;
  for (const [t, team] of teams.entries()) {
    for (const [c, challenge] of challenges.entries()) {
      if ((t + c) % 2 === 0) await write("s", team, c % team.members.length, challenge, ((t * 5 + c) % 7) * 1000);
      for (let k = 0; k < 9; k++) await write("a", team, (k + c) % team.members.length, challenge, (n++ % 7) * 1000);
    }
  }
}, 120_000);
afterAll(async () => {
  await world.close();
});

describe("the submissions log paged by key", () => {
  it("walks the whole log in order across page boundaries inside runs of equal times, at any page size", async () => {
    expect(new Set(rows.map((r) => r.time)).size).toBe(7);
    for (const limit of [1, 7, 25, 100]) expect(await walk({}, limit)).toEqual(ordered(rows));
    const first = await callerFor(world, staff).moderation.submissions({ limit: 10 });
    expect(first).toMatchObject({ count: rows.length, count_capped: false });
  });

  it("walks each filter, alone and together, completely", async () => {
    const filters: Filter[] = [
      { team: teams[0]!.id },
      { user: teams[1]!.members[1]!.id },
      { challenge: challenges[2] },
      { correct: true },
      { correct: false },
      { team: teams[1]!.id, challenge: challenges[3], correct: false },
      { user: teams[0]!.members[0]!.id, correct: true },
    ];
    for (const filter of filters) {
      const expected = ordered(rows.filter(passes(filter)));
      expect(expected.length).toBeGreaterThan(0);
      expect(await walk(filter, 4)).toEqual(expected);
      expect((await callerFor(world, staff).moderation.submissions({ ...filter, limit: 4 })).count).toBe(expected.length);
    }
    expect(await walk({ team: 999_999 }, 10)).toEqual([]);
  });

  it("keeps an older walk whole while new flags arrive on top; the first page fetched again shows them", async () => {
    const before = ordered(rows);
    const arrived: string[] = [];
    const walked = await walk({}, 9, async (page) => {
      if (page > 3) return;
      const count = rows.length;
      // Newer than anything, and one at the newest time already shown.
      await write("a", teams[2]!, 0, challenges[0]!, 60_000 + page);
      await write("a", teams[1]!, 1, challenges[1]!, 6000);
      arrived.push(...rows.slice(count).map((r) => r.key));
    });
    // The rows already on the walk's path stay in place; nothing is repeated or lost.
    expect(walked).toEqual(before);
    const top = await callerFor(world, staff).moderation.submissions({ limit: 100 });
    expect(top.results.slice(0, 4).map((s) => s.key)).toEqual(ordered(rows).slice(0, 4));
    expect(top.results.slice(0, 4).map((s) => s.key)).toEqual(arrived.filter((_, i) => i % 2 === 0).reverse());
    expect(await walk({}, 13)).toEqual(ordered(rows));
  });

  it("refuses a cursor that is not one, changing nothing", async () => {
    for (const cursor of ["5000", "2026-11-20T12:00:00.000Z_x1", "2026-13-45T12:00:00.000Z_a1", "'; DROP TABLE solves; --"]) {
      await expect(callerFor(world, staff).moderation.submissions({ cursor })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    await expect(callerFor(world, teams[0]!.members[0]!).moderation.submissions({ cursor: null })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("counts up to the cap and says there are more beyond it; deep pages stay exact", async () => {
    const challenge = (await createChallenge(world, (await createCategory(world)).id)).id;
    const team = teams[0]!;
    await world.services.db.$executeRaw`
      INSERT INTO incorrect_attempts (team_id, user_id, challenge_id, flag, timestamp, ip)
      SELECT ${team.id}, ${team.members[0]!.id}, ${challenge}, 'flag{bulk-' || g || '}', ${new Date(BASE)}::timestamp - make_interval(secs => g), NULL
        FROM generate_series(1, ${COUNT_CAP + 5}) g`;
    const first = await callerFor(world, staff).moderation.submissions({ challenge, limit: 50 });
    expect(first).toMatchObject({ count: COUNT_CAP, count_capped: true });
    expect(first.results[0]!.flag).toBe("flag{bulk-1}");
    expect((await callerFor(world, staff).moderation.submissions({ challenge, correct: true })).count).toBe(0);
    // The last page of 50, walked to by cursor: rows COUNT_CAP + 1 to COUNT_CAP + 5, then no further page.
    let cursor = first.next_cursor;
    let page = first;
    for (let n = 1; n <= COUNT_CAP / 50; n++) {
      page = await callerFor(world, staff).moderation.submissions({ challenge, limit: 50, cursor });
      cursor = page.next_cursor;
    }
    expect(page.results.map((s) => s.flag)).toEqual([1, 2, 3, 4, 5].map((k) => `flag{bulk-${COUNT_CAP + k}}`));
    expect(cursor).toBeNull();
  });
});

describe("the submissions export", () => {
  it("holds the whole filtered log in order under the cap", async () => {
    const file = await callerFor(world, staff).moderation.submissionsCsv({ team: teams[1]!.id });
    const expected = rows.filter(passes({ team: teams[1]!.id }));
    expect(file).toMatchObject({ rows: expected.length, cut: false });
    const lines = file.csv.trim().split("\r\n");
    expect(lines).toHaveLength(expected.length + 1);
    expect(lines.slice(1).map((l) => Date.parse(l.split(",")[0]!))).toEqual([...expected].sort((x, y) => y.time - x.time).map((r) => r.time));
    expect(file.csv).not.toContain("# Cut");
  });

  it("stops at the cap, newest first, and says so in the file and the answer", async () => {
    const ctx = contextFor(world, staff) as Parameters<typeof exportSubmissionsCsv>[0];
    const all = ordered(rows.filter(passes({ correct: false })));
    const file = await exportSubmissionsCsv(ctx, { correct: false, team: teams[0]!.id }, 7);
    expect(file).toMatchObject({ rows: 7, cut: true });
    const lines = file.csv.trim().split("\r\n");
    expect(lines).toHaveLength(1 + 7 + 1);
    expect(lines.at(-1)).toBe(exportCutNote(7));
    expect(lines.slice(1, 8).every((l) => l.includes(",false,"))).toBe(true);
    // Exactly the cap: nothing was left out, so nothing is said.
    const exact = rows.filter(passes({ challenge: challenges[4] })).length;
    expect(await exportSubmissionsCsv(ctx, { challenge: challenges[4] }, exact)).toMatchObject({ rows: exact, cut: false });
    expect(all.length).toBeGreaterThan(7);
  });
});
