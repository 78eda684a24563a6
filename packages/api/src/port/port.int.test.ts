import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { createTeamWith } from "../challenges/fixtures.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  await callerFor(world, staff).config.set({ key: "experiments", value: { importEntire: true } });
});
afterAll(() => world.close());

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; appCode?: string; message?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: string; message?: string; cause?: { code?: string; details?: unknown } };
    return { code: e.code, appCode: e.cause?.code, message: e.message, details: e.cause?.details };
  }
  throw new Error("expected a failure");
}

const challenge = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Challenge ${id}`,
  description: `Solve **${id}**`,
  challenge_type: "default",
  challenge_metadata: {},
  flag_type: "plaintext",
  author: "sam",
  score: 100 + id,
  unlocks: [],
  flag_metadata: { flag: `flag{${id}}` },
  hints: [{ name: `Hint ${id}`, penalty: 5, text: `text ${id}` }],
  files: [{ name: "a.txt", url: "https://example.com/a.txt", size: 10 }],
  tags: ["web", { type: "tag", text: "easy" }],
  ...extra,
});

describe("category import", () => {
  it("creates the category, its challenges, hints, files and tags, and links unlocks to the new ids", async () => {
    const caller = callerFor(world, staff);
    const result = await caller.port.importCategory({
      name: "Imported",
      contained_type: "campaign",
      description: "From elsewhere",
      metadata: { category_slug: "imported" },
      challenges: [challenge(501), challenge(502, { unlock_requirements: "501" }), challenge(503, { unlock_requirements: "501 502 OR" })],
    });
    expect(result.challenges).toBe(3);
    const category = (await caller.challenges.categories()).find((c) => c.id === result.id)!;
    expect(category).toMatchObject({ name: "Imported", contained_type: "campaign", slug: "imported" });
    const byName = new Map(category.challenges.map((c) => [(c as { name: string }).name, c as { id: number; unlock_requirements: string; hints: unknown[]; files: unknown[]; tags: unknown[] }]));
    const first = byName.get("Challenge 501")!;
    const second = byName.get("Challenge 502")!;
    expect(second.unlock_requirements).toBe(String(first.id));
    expect(byName.get("Challenge 503")!.unlock_requirements).toBe(`${first.id} ${second.id} OR`);
    expect(first.hints).toEqual([{ id: expect.any(Number), name: "Hint 501", penalty: 5, text: "text 501", used: false, requirements: [] }]);
    expect(first.files).toEqual([{ id: expect.any(Number), name: "a.txt", url: "https://example.com/a.txt", size: 10 }]);
    expect(first.tags).toEqual([{ type: "tag", text: "web" }, { type: "tag", text: "easy" }]);
    expect(await world.services.db.auditLog.count({ where: { action: "import_category" } })).toBeGreaterThan(0);
  });

  it("refuses invalid data with 'Invalid category data.' and writes nothing", async () => {
    const before = await world.services.db.category.count();
    const error = await errorOf(callerFor(world, staff).port.importCategory({ name: "Bad", contained_type: "jeopardy", description: "", challenges: [challenge(1, { unlock_requirements: "9" })] }));
    expect(error).toMatchObject({ appCode: "invalid", message: "Invalid category data." });
    expect(await world.services.db.category.count()).toBe(before);
  });

  it("leaves nothing half-imported when a write fails inside the transaction", async () => {
    const db = world.services.db;
    const [categories, challenges, hints] = await Promise.all([db.category.count(), db.challenge.count(), db.hint.count()]);
    // Valid by the schema, but the database refuses it (a NUL byte in text) after the category
    // and the challenges were written: the whole import must roll back.
    const error = await errorOf(
      callerFor(world, staff).port.importCategory({
        name: "Half",
        contained_type: "jeopardy",
        description: "",
        challenges: [challenge(1), challenge(2, { hints: [{ name: "nul", penalty: 0, text: "bad \u0000 byte" }] })],
      }),
    );
    expect(error.code).toBeDefined();
    expect(await Promise.all([db.category.count(), db.challenge.count(), db.hint.count()])).toEqual([categories, challenges, hints]);
    expect(await db.category.findFirst({ where: { name: "Half" } })).toBeNull();
  });

  it("is staff only", async () => {
    const team = await createTeamWith(world);
    expect((await errorOf(callerFor(world, team.members[0]!).port.importCategory({}))).appCode).toBe("permission_denied");
  });

  it("imports 500 challenges with unlocks in seconds", async () => {
    const challenges = Array.from({ length: 500 }, (_, i) => challenge(i + 1, { unlock_requirements: i === 0 ? "" : `${i}` }));
    const started = Date.now();
    const result = await callerFor(world, staff).port.importCategory({ name: "Big", contained_type: "jeopardy", description: "", challenges });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.challenges).toBe(500);
    expect(await world.services.db.challenge.count({ where: { categoryId: result.id, unlockRequirements: { not: "" } } })).toBe(499);
  });
});

describe("challenge import and export", () => {
  it("exports a challenge without player state and imports it into a category", async () => {
    const caller = callerFor(world, staff);
    const { id: categoryId } = await caller.port.importCategory({ name: "Source", contained_type: "jeopardy", description: "", challenges: [challenge(7)] });
    const category = (await caller.challenges.categories()).find((c) => c.id === categoryId)!;
    const exported = await caller.port.exportChallenge({ id: category.challenges[0]!.id });
    for (const key of ["solved", "unlocked", "first_blood", "solve_count", "votes", "current_score"]) expect(exported).not.toHaveProperty(key);
    expect(exported.hints).toEqual([{ name: "Hint 7", penalty: 5, text: "text 7", requirements: [] }]);
    expect(exported.files).toEqual([{ name: "a.txt", url: "https://example.com/a.txt", size: 10 }]);
    const imported = await caller.port.importChallenge({ category: categoryId, data: exported });
    expect(imported).toMatchObject({ name: "Challenge 7", flag_metadata: { flag: "flag{7}" }, category: categoryId });
    const error = await errorOf(caller.port.importChallenge({ category: categoryId, data: { name: "x" } }));
    expect(error).toMatchObject({ appCode: "invalid", message: "Invalid challenge data." });
  });
});

describe("release times, suggested next challenges and hint requirements", () => {
  const RELEASE = "2031-03-04T05:06:07.000Z";
  const hints = [
    { name: "First", penalty: 5, text: "Start here." },
    { name: "Second", penalty: 10, text: "Then this.", requirements: [0] },
    { name: "Third", penalty: 20, text: "Last.", requirements: [0, 1] },
  ];
  type Staffed = { id: number; name: string; scheduled_at: string | null; next_challenge: number | null; hints: { id: number; name: string; requirements: number[] }[] };
  const byName = async (categoryId: number) => {
    const category = (await callerFor(world, staff).challenges.categories()).find((c) => c.id === categoryId)!;
    return new Map(category.challenges.map((c) => [(c as Staffed).name, c as Staffed]));
  };
  const hintIds = (challenge: Staffed) => new Map(challenge.hints.map((h) => [h.name, h.id]));

  it("a category round trip keeps all three, linked to the imported records", async () => {
    const caller = callerFor(world, staff);
    const first = await caller.port.importCategory({
      name: "Scheduled trail",
      contained_type: "jeopardy",
      description: "",
      challenges: [challenge(601, { next_challenge: 602, scheduled_at: RELEASE, hints }), challenge(602, { next_challenge: 601 })],
    });
    const original = await byName(first.id);
    const a = original.get("Challenge 601")!;
    const b = original.get("Challenge 602")!;
    expect(a).toMatchObject({ scheduled_at: RELEASE, next_challenge: b.id });
    expect(b).toMatchObject({ scheduled_at: null, next_challenge: a.id });
    const aHints = hintIds(a);
    expect(a.hints.map((h) => h.requirements)).toEqual([[], [aHints.get("First")], [aHints.get("First"), aHints.get("Second")]]);

    // The export carries them: the next challenge by its id in the file, requirements by position.
    const exported = await caller.port.exportCategory({ id: first.id });
    const [ea, eb] = exported.challenges;
    expect(ea).toMatchObject({ id: a.id, scheduled_at: RELEASE, next_challenge: b.id });
    expect(eb).toMatchObject({ id: b.id, scheduled_at: null, next_challenge: a.id });
    expect(ea!.hints.map((h) => h.requirements)).toEqual([[], [0], [0, 1]]);

    // Imported again: every link points at the new records, none at the old ones.
    const second = await caller.port.importCategory({ ...exported, name: "Scheduled trail again" });
    const copy = await byName(second.id);
    const ca = copy.get("Challenge 601")!;
    const cb = copy.get("Challenge 602")!;
    expect([ca.id, cb.id]).not.toContain(a.id);
    expect(ca).toMatchObject({ scheduled_at: RELEASE, next_challenge: cb.id });
    expect(cb).toMatchObject({ scheduled_at: null, next_challenge: ca.id });
    const caHints = hintIds(ca);
    expect(ca.hints.map((h) => h.requirements)).toEqual([[], [caHints.get("First")], [caHints.get("First"), caHints.get("Second")]]);
    expect(await caller.port.exportCategory({ id: second.id })).toEqual({ ...exported, name: "Scheduled trail again", challenges: [
      { ...ea!, id: ca.id, next_challenge: cb.id },
      { ...eb!, id: cb.id, next_challenge: ca.id },
    ] });
  });

  it("a category's export leaves out a next challenge of another category; its import leaves unset one it does not bring", async () => {
    const caller = callerFor(world, staff);
    const other = await caller.port.importCategory({ name: "Elsewhere", contained_type: "jeopardy", description: "", challenges: [challenge(611)] });
    const otherId = (await byName(other.id)).get("Challenge 611")!.id;
    const made = await caller.port.importCategory({ name: "Pointing out", contained_type: "jeopardy", description: "", challenges: [challenge(612, { next_challenge: 999 })] });
    const pointing = (await byName(made.id)).get("Challenge 612")!;
    expect(pointing.next_challenge).toBeNull();
    await caller.challenges.update({ id: pointing.id, patch: { next_challenge: otherId } });
    expect((await caller.port.exportCategory({ id: made.id })).challenges[0]).toMatchObject({ next_challenge: null });
  });

  it("a single challenge keeps its release time and hint requirements; its next challenge is another event's, so not kept", async () => {
    const caller = callerFor(world, staff);
    const made = await caller.port.importCategory({ name: "Single source", contained_type: "jeopardy", description: "", challenges: [challenge(621, { scheduled_at: RELEASE, hints, next_challenge: 622 }), challenge(622)] });
    const source = (await byName(made.id)).get("Challenge 621")!;
    const exported = await caller.port.exportChallenge({ id: source.id });
    expect(exported).toMatchObject({ scheduled_at: RELEASE, next_challenge: (await byName(made.id)).get("Challenge 622")!.id });
    const imported = await caller.port.importChallenge({ category: made.id, data: exported });
    expect(imported).toMatchObject({ scheduled_at: RELEASE, next_challenge: null });
    const ids = new Map(imported.hints.map((h) => [h.name, h.id]));
    expect(ids.get("First")).not.toBe(hintIds(source).get("First"));
    expect(imported.hints.map((h) => h.requirements)).toEqual([[], [ids.get("First")], [ids.get("First"), ids.get("Second")]]);
  });

  it("refuses a hint requirement that names no hint of the challenge, or the hint itself, and writes nothing", async () => {
    const caller = callerFor(world, staff);
    const before = await world.services.db.challenge.count();
    for (const requirements of [[3], [1]]) {
      const bad = [hints[0], { name: "Loop", penalty: 0, text: "x", requirements }];
      const error = await errorOf(caller.port.importCategory({ name: "Bad hints", contained_type: "jeopardy", description: "", challenges: [challenge(631, { hints: bad })] }));
      expect(error).toMatchObject({ appCode: "invalid", message: "Invalid category data." });
      expect(JSON.stringify(error.details)).toMatch(requirements[0] === 1 ? /cannot require itself/ : /Requires hint 3/);
    }
    const error = await errorOf(caller.port.importCategory({ name: "Bad time", contained_type: "jeopardy", description: "", challenges: [challenge(632, { scheduled_at: "next week" })] }));
    expect(error).toMatchObject({ appCode: "invalid", message: "Invalid category data." });
    expect(await world.services.db.challenge.count()).toBe(before);
  });

  it("drops a requirement of a hint without text, which is not imported", async () => {
    const caller = callerFor(world, staff);
    const made = await caller.port.importCategory({
      name: "Textless",
      contained_type: "jeopardy",
      description: "",
      challenges: [challenge(641, { hints: [{ name: "Empty", penalty: 0, text: "" }, { name: "Kept", penalty: 0, text: "k" }, { name: "After", penalty: 0, text: "a", requirements: [0, 1] }] })],
    });
    const imported = (await byName(made.id)).get("Challenge 641")!;
    expect(imported.hints.map((h) => [h.name, h.requirements])).toEqual([["Kept", []], ["After", [hintIds(imported).get("Kept")]]]);
  });
});

describe("CSV exports", () => {
  it("exports players, teams and both leaderboards with the spec's columns", async () => {
    const caller = callerFor(world, staff);
    const team = await createTeamWith(world, 2);
    const players = await caller.port.playersCsv();
    expect(players.csv.split("\r\n")[0]).toBe("id,username,email,email verified,date joined,active,visible,staff,team id,points,leaderboard points,reddit,twitter,discord,discord id,bio,solves");
    expect(players.csv).toContain(team.members[0]!.username);
    const teams = await caller.port.teamsCsv();
    expect(teams.csv.split("\r\n")[0]).toBe("id,name,visible,owner,password,members,solves");
    expect(teams.csv).toContain(`${team.id},${team.name},true,${team.members[0]!.id},team-secret-1,`);
    expect((await caller.port.leaderboardCsv({ kind: "team" })).csv.split("\r\n")[0]).toBe("team name,points");
    expect((await caller.port.leaderboardCsv({ kind: "user" })).csv.split("\r\n")[0]).toBe("username,points");
  });

  it("says 'No teams to export!' when there are none", async () => {
    const empty = await createTestWorld();
    try {
      const s = await createUser(empty, { isStaff: true });
      expect(await errorOf(callerFor(empty, s).port.teamsCsv())).toMatchObject({ appCode: "not_found", message: "No teams to export!" });
    } finally {
      await empty.close();
    }
  });
});
