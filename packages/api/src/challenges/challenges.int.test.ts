import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDb } from "@flagship/db";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInnerContext } from "../context.ts";
import type { AppEvent } from "../events/publisher.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { invalidateCatalog } from "./catalog.ts";
import { createCategory, createChallenge, createTeamWith, type TestTeam } from "./fixtures.ts";
import { listCategories, listCategoriesJson } from "./list-categories.ts";
import { submitFlag } from "./submit-flag.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

beforeEach(() => world.setNow(null));

const socketEvents = (code: number) =>
  world.events.filter((e): e is Extract<AppEvent, { kind: "socket" }> => e.kind === "socket" && e.payload.event_code === code);

async function setConfig(key: string, value: unknown) {
  await callerFor(world, staff).config.set({ key, value });
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; appCode?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: string; cause?: { code?: string; details?: unknown } };
    return { code: e.code, appCode: e.cause?.code, details: e.cause?.details };
  }
  throw new Error("expected a failure");
}

describe("listing categories", () => {
  it("needs a login and hides everything before the start, except from staff", async () => {
    const team = await createTeamWith(world);
    expect((await errorOf(callerFor(world, null).challenges.categories())).code).toBe("UNAUTHORIZED");
    await setConfig("start_time", 2_000_000_000);
    world.setNow(1_900_000_000);
    expect(await errorOf(callerFor(world, team.members[0]!).challenges.categories())).toMatchObject({ code: "FORBIDDEN", appCode: "permission_denied" });
    expect(Array.isArray(await callerFor(world, staff).challenges.categories())).toBe(true);
    world.setNow(2_000_000_001);
    expect(Array.isArray(await callerFor(world, team.members[0]!).challenges.categories())).toBe(true);
    await setConfig("start_time", null);
  });

  it("after the end answers only while viewing after the competition is allowed", async () => {
    const team = await createTeamWith(world);
    await setConfig("end_time", 1_800_000_000);
    world.setNow(1_900_000_000);
    expect(Array.isArray(await callerFor(world, team.members[0]!).challenges.categories())).toBe(true);
    await setConfig("enable_view_challenges_after_competion", false);
    expect((await errorOf(callerFor(world, team.members[0]!).challenges.categories())).appCode).toBe("permission_denied");
    await setConfig("enable_view_challenges_after_competion", true);
    await setConfig("end_time", null);
  });

  it("omits hidden challenges, stubs locked ones and never shows flags to players", async () => {
    const team = await createTeamWith(world);
    const category = await createCategory(world, { metadata: { category_slug: "misc-fun" } });
    const open = await createChallenge(world, category.id, {
      name: "Open Sesame",
      challengeMetadata: { cserv_name: "job-1" },
      hints: [{ name: "Nudge", penalty: 10, text: "look closer" }],
      postScoreExplanation: "well done",
    });
    const locked = await createChallenge(world, category.id, { unlockRequirements: `${open.id}`, challengeMetadata: { cserv_name: "job-2", x: 2 } });
    const hidden = await createChallenge(world, category.id, { name: "Secret Vault", hidden: true });
    // A locked challenge names what unlocks it by id (the client names those it lists, and only those).
    const behindHidden = await createChallenge(world, category.id, { unlockRequirements: `${open.id} ${hidden.id} AND` });
    const list = await callerFor(world, team.members[0]!).challenges.categories();
    const mine = list.find((c) => c.id === category.id)!;
    expect(mine.slug).toBe("misc-fun");
    expect(mine.challenges).toHaveLength(3);
    expect(mine.challenges.find((c) => c.id === behindHidden.id)).toMatchObject({ unlocked: false, unlock_requirements: `${open.id} ${hidden.id} AND` });
    expect(JSON.stringify(list)).not.toContain("Secret Vault");
    const full = mine.challenges.find((c) => c.id === open.id)!;
    expect(full).toMatchObject({ name: "Open Sesame", slug: "open-sesame", unlocked: true, solved: false, post_score_explanation: "" });
    expect(full).not.toHaveProperty("flag_metadata");
    expect("hints" in full && full.hints[0]).toEqual({ id: expect.any(Number), name: "Nudge", penalty: 10, text: "", used: false, requirements: [] });
    const stub = mine.challenges.find((c) => c.id === locked.id)!;
    expect(Object.keys(stub).sort()).toEqual(["category", "challenge_metadata", "challenge_type", "id", "solve_count", "unlock_requirements", "unlocked", "votes"]);
    expect(stub.challenge_metadata).toEqual({ x: 2 });
    expect(JSON.stringify(list)).not.toContain("flag{right}");

    const staffList = await callerFor(world, staff).challenges.categories();
    const staffMine = staffList.find((c) => c.id === category.id)!;
    expect(staffMine.challenges).toHaveLength(4);
    expect(staffMine.challenges.every((c) => "flag_metadata" in c)).toBe(true);
  });

  it("costs the same number of queries for 3 challenges as for 60", async () => {
    const counted: string[] = [];
    const db = createDb(world.database.url, { onQuery: (sql) => counted.push(sql) });
    const services = { ...world.services, db };
    const team = await createTeamWith(world);
    const user = team.members[0]!;
    const ctx = createInnerContext(services, user.actor);
    const category = await createCategory(world);
    const measure = async () => {
      await invalidateCatalog(services);
      counted.length = 0;
      await listCategories(ctx); // cold: loads the catalog
      expect(counted.length).toBeGreaterThan(1);
      counted.length = 0;
      await listCategories(ctx);
      const warm = counted.length;
      return warm;
    };
    for (let i = 0; i < 3; i++) await createChallenge(world, category.id, { hints: [{ name: "h", penalty: 1, text: "t" }] });
    const small = await measure();
    for (let i = 0; i < 57; i++) await createChallenge(world, category.id, { hints: [{ name: "h", penalty: 1, text: "t" }], tags: { create: [{ text: "web" }] } });
    const large = await measure();
    expect(small).toBe(large);
    expect(large).toBeLessThanOrEqual(1);

    // An incorrect submission costs a small, bounded number of queries.
    const challenge = await createChallenge(world, category.id, { attemptLimit: 100 });
    await invalidateCatalog(services);
    await listCategories(ctx);
    counted.length = 0;
    await submitFlag(ctx, { challenge: challenge.id, flag: "flag{wrong}" });
    expect(counted.length).toBeLessThanOrEqual(4);
    await db.$disconnect();
  });
});

describe("the JSON listing", () => {
  it("parses to exactly the object listing, for players and staff", async () => {
    const compare = async (user: TestUser) => {
      const ctx = createInnerContext(world.services, user.actor);
      expect(JSON.parse(Buffer.concat(await listCategoriesJson(ctx)).toString("utf8"))).toEqual(await listCategories(ctx));
    };
    const category = await createCategory(world, { metadata: { category_slug: "json-cat" } });
    const first = await createChallenge(world, category.id, { challengeMetadata: { cserv_name: "srv", x: 1 }, hints: [{ name: "a", penalty: 5, text: "secret a" }, { name: "b", penalty: 1, text: "secret b" }], postScoreExplanation: "because" });
    await createChallenge(world, category.id, { unlockRequirements: `${first.id}`, challengeMetadata: { cserv_name: "srv2" } });
    await createChallenge(world, category.id, { hidden: true });
    const team = await createTeamWith(world, 2);
    const [a, b] = team.members as [TestUser, TestUser];
    // Another team's player, who shares the answers kept as bytes with every team in the same state.
    const [other] = (await createTeamWith(world, 1)).members as [TestUser];
    await compare(other);
    const hint = await world.services.db.hint.findFirstOrThrow({ where: { challengeId: first.id }, orderBy: { id: "asc" } });
    await callerFor(world, a).hints.use({ id: hint.id });
    await compare(b);
    await callerFor(world, a).challenges.submitFlag({ challenge: first.id, flag: "flag{right}" });
    await callerFor(world, b).challenges.vote({ challenge: first.id, positive: false });
    await compare(a);
    await compare(b);
    await compare(other);
    await compare(staff);
  });
});

describe("submitting flags", () => {
  let category: { id: number };
  beforeAll(async () => {
    category = await createCategory(world);
  });

  it("scores a correct flag: solve, totals, score record, first blood and event 1", async () => {
    const team = await createTeamWith(world, 2);
    const [alice] = team.members as [TestUser, TestUser];
    const challenge = await createChallenge(world, category.id, { score: 250, postScoreExplanation: "It was ROT13." });
    const result = await callerFor(world, alice).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    expect(result).toEqual({ m: "correct_flag", d: { correct: true, explanation: "It was ROT13." } });
    const solve = await world.services.db.solve.findFirstOrThrow({ where: { challengeId: challenge.id } });
    expect(solve).toMatchObject({ teamId: team.id, userId: alice.id, points: 250, penalty: 0, firstBlood: true, scoring: true });
    const user = await world.services.db.user.findUniqueOrThrow({ where: { id: alice.id }, select: { points: true, leaderboardPoints: true, lastScoreAt: true } });
    expect(user).toMatchObject({ points: 250, leaderboardPoints: 250 });
    expect(user.lastScoreAt).not.toBeNull();
    const dbTeam = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true, leaderboardPoints: true } });
    expect(dbTeam).toEqual({ points: 250, leaderboardPoints: 250 });
    const records = await world.services.db.scoreRecord.findMany({ where: { teamId: team.id } });
    expect(records).toEqual([expect.objectContaining({ userId: alice.id, teamId: team.id, points: 250, reason: "solve", leaderboard: true })]);
    const row = await world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id }, select: { solveCount: true, firstBloodTeamId: true } });
    expect(row).toEqual({ solveCount: 1, firstBloodTeamId: team.id });
    expect(socketEvents(1).at(-1)).toEqual({
      kind: "socket",
      audience: { all: true },
      payload: { event_code: 1, user: alice.id, username: alice.username, challenge_id: challenge.id, challenge_name: challenge.name, challenge_score: 250, team: team.id, team_name: team.name },
      // The new totals, for the server copies' leaderboards (never sent to sockets).
      standings: {
        teams: [{ id: team.id, points: 250, last: user.lastScoreAt!.toISOString(), listed: true }],
        users: [{ id: alice.id, points: 250, last: user.lastScoreAt!.toISOString(), listed: true }],
      },
    });
    const view = (await callerFor(world, team.members[1]!).challenges.get({ id: challenge.id })) as { solved: boolean; first_blood: string; solve_count: number; post_score_explanation: string };
    expect(view).toMatchObject({ solved: true, first_blood: team.name, solve_count: 1, post_score_explanation: "It was ROT13." });
  });

  it("tells only the solving team about a hidden challenge staff solve, and leaves first blood to the first real team", async () => {
    const staffTeam = await createTeamWith(world);
    const tester = await createUser(world, { isStaff: true, teamId: staffTeam.id });
    const challenge = await createChallenge(world, category.id, { hidden: true });
    expect((await callerFor(world, tester).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" })).m).toBe("correct_flag");
    expect(socketEvents(1).at(-1)).toMatchObject({ audience: { teamId: staffTeam.id }, payload: { challenge_id: challenge.id } });
    expect(socketEvents(1).filter((e) => e.payload.challenge_id === challenge.id && "all" in e.audience)).toEqual([]);
    expect(await world.services.db.solve.findFirstOrThrow({ where: { challengeId: challenge.id }, select: { firstBlood: true } })).toEqual({ firstBlood: false });
    expect(await world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id }, select: { firstBloodTeamId: true } })).toEqual({ firstBloodTeamId: null });

    await world.services.db.challenge.update({ where: { id: challenge.id }, data: { hidden: false } });
    await invalidateCatalog(world.services);
    const team = await createTeamWith(world);
    await callerFor(world, team.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    expect(socketEvents(1).at(-1)).toMatchObject({ audience: { all: true }, payload: { challenge_id: challenge.id, team: team.id } });
    expect(await world.services.db.solve.findFirstOrThrow({ where: { challengeId: challenge.id, teamId: team.id }, select: { firstBlood: true } })).toEqual({ firstBlood: true });
    expect(await world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id }, select: { firstBloodTeamId: true } })).toEqual({ firstBloodTeamId: team.id });
  });

  it("rejects a wrong flag, records the attempt and tells the team (event 2)", async () => {
    const team = await createTeamWith(world);
    const user = team.members[0]!;
    const challenge = await createChallenge(world, category.id);
    expect(await callerFor(world, user).challenges.submitFlag({ challenge: challenge.id, flag: "flag{nope}" })).toEqual({ m: "incorrect_flag", d: { correct: false } });
    expect(await world.services.db.incorrectAttempt.count({ where: { teamId: team.id, challengeId: challenge.id } })).toBe(1);
    expect(socketEvents(2).at(-1)).toEqual({
      kind: "socket",
      audience: { teamId: team.id },
      payload: { event_code: 2, user: user.id, username: user.username, challenge_id: challenge.id, challenge_name: challenge.name, team: team.id, team_name: team.name },
      // The new wrong-flag totals, for the copies' own views (never sent to sockets).
      attempts: { teamId: team.id, team: 1, userId: user.id, user: 1 },
    });
  });

  it("checks in the contract's order", async () => {
    const loner = await createUser(world);
    const team = await createTeamWith(world);
    const user = team.members[0]!;
    const caller = callerFor(world, user);
    const challenge = await createChallenge(world, category.id);
    const hidden = await createChallenge(world, category.id, { hidden: true });
    const locked = await createChallenge(world, category.id, { unlockRequirements: `${challenge.id}` });

    expect(await errorOf(callerFor(world, loner).challenges.submitFlag({ challenge: challenge.id, flag: "x" }))).toMatchObject({ appCode: "permission_denied" });
    await setConfig("enable_flag_submission", false);
    expect((await errorOf(caller.challenges.submitFlag({}))).appCode).toBe("flag_submission_disabled");
    await setConfig("enable_flag_submission", true);
    await setConfig("end_time", 1_000);
    expect((await errorOf(caller.challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" }))).appCode).toBe("flag_submission_disabled");
    await setConfig("end_time", null);
    expect(await errorOf(caller.challenges.submitFlag({ challenge: challenge.id }))).toMatchObject({ appCode: "required", details: { flag: ["This field is required"] } });
    expect((await errorOf(caller.challenges.submitFlag({ challenge: 999_999, flag: "x" }))).appCode).toBe("not_found");
    expect((await errorOf(caller.challenges.submitFlag({ challenge: hidden.id, flag: "flag{right}" }))).appCode).toBe("not_found");
    expect((await errorOf(caller.challenges.submitFlag({ challenge: locked.id, flag: "flag{right}" }))).appCode).toBe("challenge_not_unlocked");
    await caller.challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    expect((await errorOf(caller.challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" }))).appCode).toBe("already_solved_challenge");
    // Solving the requirement unlocks the next one.
    expect((await caller.challenges.submitFlag({ challenge: locked.id, flag: "flag{right}" })).m).toBe("correct_flag");
  });

  it("lets flag submission continue after the end when switched on, without leaderboard points", async () => {
    const team = await createTeamWith(world);
    const challenge = await createChallenge(world, category.id, { score: 40 });
    await setConfig("end_time", 1_000);
    await setConfig("enable_flag_submission_after_competition", true);
    expect((await callerFor(world, team.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" })).m).toBe("correct_flag");
    await setConfig("enable_flag_submission_after_competition", false);
    await setConfig("end_time", null);
    const row = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true, leaderboardPoints: true } });
    expect(row).toEqual({ points: 40, leaderboardPoints: 0 });
  });

  it("raises points but not leaderboard points with scoring off; tiebreaker false keeps the last-score time", async () => {
    const team = await createTeamWith(world);
    const user = team.members[0]!;
    const challenge = await createChallenge(world, category.id, { score: 70, tiebreaker: false });
    await setConfig("enable_scoring", false);
    await callerFor(world, user).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    await setConfig("enable_scoring", true);
    const row = await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { points: true, leaderboardPoints: true, lastScoreAt: true } });
    expect(row).toEqual({ points: 70, leaderboardPoints: 0, lastScoreAt: null });
    const solve = await world.services.db.solve.findFirstOrThrow({ where: { challengeId: challenge.id } });
    expect(solve).toMatchObject({ scoring: false, tiebreaker: false });
  });

  it("records exactly one solve when 20 members of a team submit the right flag at once", async () => {
    const team = await createTeamWith(world, 20);
    const challenge = await createChallenge(world, category.id, { score: 100 });
    const results = await Promise.allSettled(
      team.members.map((m) => callerFor(world, m).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r.reason as { cause?: { code?: string } }).cause?.code);
    expect(ok).toHaveLength(1);
    expect(refused).toEqual(Array(19).fill("already_solved_challenge"));
    expect(await world.services.db.solve.count({ where: { challengeId: challenge.id } })).toBe(1);
    const dbTeam = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true } });
    expect(dbTeam.points).toBe(100);
    const row = await world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id }, select: { solveCount: true } });
    expect(row.solveCount).toBe(1);
  });

  it("allows at most attempt_limit attempts under parallel submissions", async () => {
    const team = await createTeamWith(world, 10);
    const challenge = await createChallenge(world, category.id, { attemptLimit: 3 });
    const results = await Promise.all(team.members.map((m) => callerFor(world, m).challenges.submitFlag({ challenge: challenge.id, flag: "flag{wrong}" })));
    expect(results.filter((r) => r.m === "incorrect_flag")).toHaveLength(3);
    expect(results.filter((r) => r.m === "attempt_limit_reached")).toHaveLength(7);
    expect(await world.services.db.incorrectAttempt.count({ where: { challengeId: challenge.id } })).toBe(3);
    // The right flag is refused too once the allowance is spent.
    expect(await callerFor(world, team.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" })).toEqual({ m: "attempt_limit_reached", d: { correct: false } });
  });

  it("accepts every flag type as the contract's table says", async () => {
    const team = await createTeamWith(world);
    const caller = callerFor(world, team.members[0]!);
    const digest = createHash("sha256").update("flag{h4sh}").digest("hex");
    const cases: [string, object, unknown, unknown][] = [
      ["lenient", { flag: "flag{Hello World}" }, "FLAG{héllo world}", "flag{hello}"],
      ["long_text", { flag: "To be, or not to be." }, "to be or not to be", "to be"],
      ["hashed", { flag: digest }, "flag{h4sh}", "flag{H4SH}"],
      ["regex", { flag: "flag\\{[0-9]+\\}" }, "flag{123}", "flag{12a}"],
      ["map", { location: [51.5, -0.12], radius: 5 }, [51.51, -0.13], [48.85, 2.35]],
    ];
    for (const [flagType, flagMetadata, right, wrong] of cases) {
      const challenge = await createChallenge(world, category.id, { flagType, flagMetadata, challengeType: flagType === "map" ? "map" : "default" });
      expect((await caller.challenges.submitFlag({ challenge: challenge.id, flag: wrong })).m).toBe("incorrect_flag");
      expect((await caller.challenges.submitFlag({ challenge: challenge.id, flag: right })).m).toBe("correct_flag");
    }
  });

  it("decays: every solver's points follow the current score, with decay records and event 7", async () => {
    const challenge = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 100 } });
    const teams: TestTeam[] = [];
    for (let i = 0; i < 3; i++) teams.push(await createTeamWith(world));
    for (const team of teams) await callerFor(world, team.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    // Values: 500, then 300, then 200 (100 + 400 * 0.5^2).
    const row = await world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id }, select: { currentScore: true } });
    expect(row.currentScore).toBe(200);
    for (const team of teams) {
      const t = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true, leaderboardPoints: true } });
      expect(t).toEqual({ points: 200, leaderboardPoints: 200 });
      const records = await world.services.db.scoreRecord.findMany({ where: { teamId: team.id }, orderBy: { id: "asc" } });
      expect(records.reduce((sum, r) => sum + r.points, 0)).toBe(200);
    }
    const first = await world.services.db.scoreRecord.findMany({ where: { teamId: teams[0]!.id }, orderBy: { id: "asc" }, select: { reason: true, points: true } });
    expect(first).toEqual([
      { reason: "solve", points: 500 },
      { reason: "decay", points: -200 },
      { reason: "decay", points: -100 },
    ]);
    expect(await world.services.db.solve.findMany({ where: { challengeId: challenge.id }, select: { points: true } })).toEqual([{ points: 200 }, { points: 200 }, { points: 200 }]);
    // One event 7 a solve, the first included (as upstream).
    expect(socketEvents(7).filter((e) => e.payload.challenge_id === challenge.id).map((e) => e.payload)).toEqual([
      { event_code: 7, challenge_id: challenge.id, challenge_score: 500 },
      { event_code: 7, challenge_id: challenge.id, challenge_score: 300 },
      { event_code: 7, challenge_id: challenge.id, challenge_score: 200 },
    ]);
  });
});

describe("hints", () => {
  it("reveals a hint once per team, tells the team (event 3) and charges the penalty at solve time", async () => {
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id, { score: 100, hints: [{ name: "Big hint", penalty: 30, text: "It's base64" }, { name: "Bigger", penalty: 90, text: "Decode it" }] });
    const team = await createTeamWith(world, 2);
    const [a, b] = team.members as [TestUser, TestUser];
    const hints = await world.services.db.hint.findMany({ where: { challengeId: challenge.id }, orderBy: { id: "asc" } });
    const used = await callerFor(world, a).hints.use({ id: hints[0]!.id });
    expect(used).toEqual({ id: hints[0]!.id, name: "Big hint", penalty: 30, challenge: challenge.id, text: "It's base64", used: true });
    expect(socketEvents(3).at(-1)?.payload).toEqual({
      event_code: 3,
      user: a.id,
      username: a.username,
      team: team.id,
      team_name: team.name,
      hint_name: "Big hint",
      hint_penalty: 30,
      hint_text: "It's base64",
      challenge: challenge.name,
      challenge_id: challenge.id,
      challenge_name: challenge.name,
    });
    expect((await errorOf(callerFor(world, b).hints.use({ id: hints[0]!.id }))).appCode).toBe("hint_already_used");
    const view = (await callerFor(world, b).challenges.get({ id: challenge.id })) as { hints: { text: string; used: boolean }[] };
    expect(view.hints.map((h) => [h.used, h.text])).toEqual([
      [true, "It's base64"],
      [false, ""],
    ]);
    await callerFor(world, b).hints.use({ id: hints[1]!.id });
    await callerFor(world, b).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    const solve = await world.services.db.solve.findFirstOrThrow({ where: { challengeId: challenge.id } });
    expect(solve).toMatchObject({ points: 100, penalty: 120 });
    const t = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true } });
    expect(t.points).toBe(0);
  });

  it("refuses hints of locked challenges and concurrent double use", async () => {
    const category = await createCategory(world);
    const first = await createChallenge(world, category.id);
    const locked = await createChallenge(world, category.id, { unlockRequirements: `${first.id}`, hints: [{ name: "h", penalty: 5, text: "t" }] });
    const open = await createChallenge(world, category.id, { hints: [{ name: "h", penalty: 5, text: "t" }] });
    const team = await createTeamWith(world, 5);
    const lockedHint = await world.services.db.hint.findFirstOrThrow({ where: { challengeId: locked.id } });
    expect((await errorOf(callerFor(world, team.members[0]!).hints.use({ id: lockedHint.id }))).appCode).toBe("challenge_not_unlocked");
    const openHint = await world.services.db.hint.findFirstOrThrow({ where: { challengeId: open.id } });
    const results = await Promise.allSettled(team.members.map((m) => callerFor(world, m).hints.use({ id: openHint.id })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await world.services.db.hintUse.count({ where: { hintId: openHint.id } })).toBe(1);
    expect((await errorOf(callerFor(world, team.members[0]!).hints.use({ id: 999_999 }))).appCode).toBe("not_found");
  });
});

describe("votes, feedback and check_flag", () => {
  it("opens after a team solve; a new vote replaces the old; rating counts stay exact", async () => {
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id);
    const team = await createTeamWith(world, 3);
    const [a, b, c] = team.members as [TestUser, TestUser, TestUser];
    expect((await errorOf(callerFor(world, a).challenges.vote({ challenge: challenge.id, positive: true }))).appCode).toBe("challenge_not_solved");
    expect((await errorOf(callerFor(world, a).challenges.checkFlag({ challenge: challenge.id, flag: "flag{right}" }))).appCode).toBe("havent_solved_challenge");
    await callerFor(world, a).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    await Promise.all([a, b, c].map((u) => callerFor(world, u).challenges.vote({ challenge: challenge.id, positive: true })));
    expect(await callerFor(world, b).challenges.vote({ challenge: challenge.id, positive: false })).toEqual({ positive: 2, negative: 1, self: false });
    const view = (await callerFor(world, b).challenges.get({ id: challenge.id })) as { votes: unknown };
    expect(view.votes).toEqual({ positive: 2, negative: 1, self: false });
    await callerFor(world, c).challenges.feedback({ challenge: challenge.id, feedback: "Fun!" });
    await callerFor(world, c).challenges.feedback({ challenge: challenge.id, feedback: "Really fun!" });
    expect(await world.services.db.feedback.findMany({ where: { challengeId: challenge.id }, select: { feedback: true } })).toEqual([{ feedback: "Really fun!" }]);
    expect(await callerFor(world, c).challenges.checkFlag({ challenge: challenge.id, flag: "flag{right}" })).toEqual({ m: "correct_flag", d: { correct: true } });
    expect(await callerFor(world, c).challenges.checkFlag({ challenge: challenge.id, flag: "flag{no}" })).toEqual({ m: "incorrect_flag", d: { correct: false } });
  });
});

describe("check_flag throttle", () => {
  it("shares submit_flag's allowance, so checks cannot run regex flags without limit", async () => {
    const throttled = await createTestWorld({ throttle: { enabled: true, rates: "flag_submit=3/hour" } });
    try {
      const category = await createCategory(throttled);
      const challenge = await createChallenge(throttled, category.id, { flagType: "regex", flagMetadata: { flag: "flag\\{[a-z]+\\}" } });
      const team = await createTeamWith(throttled);
      const caller = callerFor(throttled, team.members[0]!);
      expect((await caller.challenges.submitFlag({ challenge: challenge.id, flag: "flag{abc}" })).m).toBe("correct_flag");
      expect((await caller.challenges.checkFlag({ challenge: challenge.id, flag: "flag{xyz}" })).m).toBe("correct_flag");
      expect((await caller.challenges.checkFlag({ challenge: challenge.id, flag: "flag{123}" })).m).toBe("incorrect_flag");
      expect(await errorOf(caller.challenges.checkFlag({ challenge: challenge.id, flag: "flag{abc}" }))).toMatchObject({ code: "TOO_MANY_REQUESTS", appCode: "throttled" });
    } finally {
      await throttled.close();
    }
  });
});

describe("first blood webhook", () => {
  let receiver: Server;
  const received: unknown[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it("posts a Discord-compatible message for the first solve only", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await setConfig("firstblood_webhook", url);
    const category = await createCategory(world);
    const challenge = await createChallenge(world, category.id, { name: "Blood Bath" });
    const first = await createTeamWith(world);
    const second = await createTeamWith(world);
    await callerFor(world, first.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    await callerFor(world, second.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" });
    await expect.poll(() => received.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ content: expect.stringContaining("Blood Bath"), embeds: [expect.objectContaining({ title: "First blood!", description: expect.stringContaining(first.name) })] });
    await setConfig("firstblood_webhook", "");
  });
});

describe("staff writes", () => {
  it("create, update and delete challenges, files and hints, audited with event 6", async () => {
    const caller = callerFor(world, staff);
    const category = await caller.challenges.createCategory({ name: "Crypto", contained_type: "campaign", metadata: { category_slug: "crypto" } });
    expect(category).toMatchObject({ name: "Crypto", contained_type: "campaign", slug: "crypto", challenges: [] });
    const created = await caller.challenges.create({
      category: category.id,
      name: "Caesar",
      score: 100,
      flag_type: "plaintext",
      flag_metadata: { flag: "flag{caesar}" },
      tags: ["crypto", { type: "tag", text: "easy" }],
      hints: [{ name: "Shift", penalty: 10, text: "Try 3" }],
      files: [{ name: "cipher.txt", url: "/files/cipher.txt", size: 2048 }],
    });
    expect(created).toMatchObject({ name: "Caesar", score: 100, current_score: 100, tiebreaker: true, flag_metadata: { flag: "flag{caesar}" }, tags: [{ type: "tag", text: "crypto" }, { type: "tag", text: "easy" }] });
    expect(socketEvents(6).at(-1)?.payload).toEqual({ event_code: 6, challenge_id: created.id });
    const updated = await caller.challenges.update({ id: created.id, patch: { score: 150, maintenance: true, attempt_limit: 0 } });
    expect(updated).toMatchObject({ score: 150, current_score: 150, maintenance: true, attempt_limit: null });
    const file = await caller.challenges.createFile({ challenge: created.id, name: "key.pem", url: "/files/key.pem", size: 10 });
    expect(await caller.challenges.updateFile({ id: file.id, patch: { size: 20 } })).toMatchObject({ name: "key.pem", size: 20 });
    const hint = await caller.hints.create({ challenge: created.id, name: "Another", penalty: 5, text: "Look" });
    expect(await caller.hints.update({ id: hint.id, patch: { penalty: 7 } })).toMatchObject({ name: "Another", penalty: 7, text: "Look" });
    await caller.hints.delete({ id: hint.id });
    await caller.challenges.deleteFile({ id: file.id });
    await caller.challenges.delete({ id: created.id });
    await caller.challenges.updateCategory({ id: category.id, patch: { name: "Cryptography" } });
    await caller.challenges.deleteCategory({ id: category.id });
    const actions = (await world.services.db.auditLog.findMany({ where: { userId: staff.id }, orderBy: { id: "asc" }, select: { action: true } })).map((a) => a.action);
    for (const action of ["create_category", "create_challenge", "update_challenge", "create_file", "update_file", "create_hint", "update_hint", "delete_hint", "delete_file", "delete_challenge", "update_category", "delete_category"]) {
      expect(actions).toContain(action);
    }
  });

  it("refuses invalid unlock expressions and regexes RE2 cannot run, changing nothing", async () => {
    const caller = callerFor(world, staff);
    const category = await createCategory(world);
    const before = await world.services.db.challenge.count();
    const cases: [string, string][] = [
      ["1 OR", "Binary operation 'OR' needs two operands"],
      ["1 x AND", "Invalid opcode 'x'"],
      ["   ", "Stack exhausted. Nothing to do."],
      ["1 2", "Stack contains trailing data"],
    ];
    for (const [expression, message] of cases) {
      expect(await errorOf(caller.challenges.create({ category: category.id, name: "X", score: 1, flag_metadata: { flag: "x" }, unlock_requirements: expression }))).toMatchObject({
        appCode: "invalid",
        details: { unlock_requirements: [message] },
      });
    }
    const regex = await errorOf(caller.challenges.create({ category: category.id, name: "X", score: 1, flag_type: "regex", flag_metadata: { flag: "(a)\\1+" } }));
    expect(regex.appCode).toBe("invalid");
    expect(JSON.stringify(regex.details)).toContain("RE2 syntax");
    expect(await world.services.db.challenge.count()).toBe(before);
    const existing = await createChallenge(world, category.id);
    expect((await errorOf(caller.challenges.update({ id: existing.id, patch: { flag_type: "hashed" } }))).appCode).toBe("invalid");
    expect((await errorOf(caller.challenges.update({ id: 999_999, patch: { name: "x" } }))).appCode).toBe("not_found");
  });

  it("is staff only", async () => {
    const player = await createUser(world);
    expect((await errorOf(callerFor(world, player).challenges.createCategory({ name: "x" }))).code).toBe("FORBIDDEN");
    expect((await errorOf(callerFor(world, player).hints.create({ challenge: 1, name: "x" }))).code).toBe("FORBIDDEN");
  });
});
