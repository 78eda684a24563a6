import { challengeValue } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppEvent, EVENT_CODES } from "../events/publisher.ts";
import { ctftimeFeed } from "../leaderboard/leaderboard.ts";
import { callerFor, contextFor, createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld } from "../testing/index.ts";

/**
 * Live moderation through tRPC: the submissions log, awards, challenges marked solved by staff and
 * flags staff try. Each action: what it changes, that it is audited, that a player may not call it,
 * and that bad input answers its code and changes nothing. The freeze comes last (it stays on).
 */

const appCode = (code: string) => ({ cause: { code } });
const DECAY = { flag: "flag{right}", decay_constant: 0.5, min_points: 100 };

let world: TestWorld;
let staff: TestUser;
let alpha: TestTeam;
let beta: TestTeam;
let gamma: TestTeam;
let category: number;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  [alpha, beta, gamma] = [await createTeamWith(world, 2), await createTeamWith(world, 1), await createTeamWith(world, 1)];
  category = (await createCategory(world)).id;
}, 60_000);
afterAll(async () => {
  await world.close();
});

const staffCaller = () => callerFor(world, staff);
const submit = (team: TestTeam, challenge: number, flag: string, member = 0) => callerFor(world, team.members[member]!).challenges.submitFlag({ challenge, flag });
const teamPoints = async (team: TestTeam) => {
  const row = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { points: true, leaderboardPoints: true } });
  return [row.points, row.leaderboardPoints];
};
const audits = (action: string) => world.services.db.auditLog.findMany({ where: { action }, orderBy: { id: "asc" } });
/** Everything a moderation action could leave behind, to show a refused or dry one left nothing. */
const footprint = async () => {
  const { db } = world.services;
  return {
    solves: await db.solve.count(),
    attempts: await db.incorrectAttempt.count(),
    records: await db.scoreRecord.count(),
    awards: await db.award.count(),
    audit: await db.auditLog.count(),
    counters: await db.attemptCounter.count(),
    points: await db.team.aggregate({ _sum: { points: true, leaderboardPoints: true } }),
  };
};

describe("the submissions log", () => {
  it("lists right and wrong flags newest first with the text sent, filtered and paged, to staff only", async () => {
    const challenge = (await createChallenge(world, category, { score: 50 })).id;
    await submit(alpha, challenge, "flag{nope}");
    await submit(beta, challenge, "flag{also-nope}");
    await submit(alpha, challenge, "flag{right}", 1);
    const page = await staffCaller().moderation.submissions({ challenge });
    expect(page.count).toBe(3);
    expect(page.results.map((s) => [s.correct, s.team, s.flag, s.challenge_name !== "", s.ip])).toEqual([
      [true, alpha.id, "flag{right}", true, "127.0.0.1"],
      [false, beta.id, "flag{also-nope}", true, "127.0.0.1"],
      [false, alpha.id, "flag{nope}", true, "127.0.0.1"],
    ]);
    expect(page.results[0]!.username).toBe(alpha.members[1]!.username);
    expect((await staffCaller().moderation.submissions({ challenge, correct: false })).results.map((s) => s.flag)).toEqual(["flag{also-nope}", "flag{nope}"]);
    expect((await staffCaller().moderation.submissions({ challenge, correct: true })).count).toBe(1);
    expect((await staffCaller().moderation.submissions({ challenge, team: beta.id })).results.map((s) => s.flag)).toEqual(["flag{also-nope}"]);
    expect((await staffCaller().moderation.submissions({ challenge, user: alpha.members[0]!.id })).results.map((s) => s.flag)).toEqual(["flag{nope}"]);
    const first = await staffCaller().moderation.submissions({ challenge, limit: 2 });
    const second = await staffCaller().moderation.submissions({ challenge, limit: 2, cursor: first.next_cursor });
    expect({ count: second.count, flags: second.results.map((s) => s.flag), next: second.next_cursor }).toEqual({ count: null, flags: ["flag{nope}"], next: null });

    const csv = await staffCaller().moderation.submissionsCsv({ challenge });
    expect(csv.rows).toBe(3);
    const lines = csv.csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe("time,correct,team_id,team,user_id,user,challenge_id,challenge,flag,ip,marked_by");
    expect(lines[1]).toContain("flag{right}");

    const player = callerFor(world, alpha.members[0]!);
    await expect(player.moderation.submissions({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(player.moderation.submissionsCsv({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, null).moderation.submissions({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(staffCaller().moderation.submissions({ limit: 5000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("tells staff sockets of each wrong flag as it is recorded, without its text", async () => {
    const challenge = (await createChallenge(world, category)).id;
    const seen: AppEvent[] = [];
    const stop = world.services.events.subscribe((event) => seen.push(event));
    await submit(beta, challenge, "flag{secret-guess}");
    stop();
    const news = seen.filter((e) => e.kind === "socket" && e.payload.event_code === EVENT_CODES.submission);
    expect(news).toEqual([{ kind: "socket", audience: { staff: true }, payload: { event_code: EVENT_CODES.submission, team: beta.id, challenge_id: challenge } }]);
    expect(JSON.stringify(seen)).not.toContain("flag{secret-guess}");
  });
});

describe("a flag tried by staff", () => {
  it("answers right or wrong and leaves no trace: no attempt, solve, counter, audit entry or point", async () => {
    const challenge = (await createChallenge(world, category, { attemptLimit: 3 })).id;
    const hidden = (await createChallenge(world, category, { hidden: true, flagMetadata: { flag: "flag{secret}" } })).id;
    const before = await footprint();
    expect(await staffCaller().moderation.testFlag({ challenge, flag: "flag{right}" })).toEqual({ correct: true });
    expect(await staffCaller().moderation.testFlag({ challenge, flag: "flag{wrong}" })).toEqual({ correct: false });
    expect(await staffCaller().moderation.testFlag({ challenge: hidden, flag: "flag{secret}" })).toEqual({ correct: true });
    expect(await footprint()).toEqual(before);
    expect((await staffCaller().moderation.submissions({ challenge })).count).toBe(0);
    expect((await staffCaller().challenges.get({ id: challenge })).solve_count).toBe(0);
  });

  it("is refused to players, and for an unknown challenge", async () => {
    const challenge = (await createChallenge(world, category)).id;
    await expect(callerFor(world, alpha.members[0]!).moderation.testFlag({ challenge, flag: "flag{right}" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(staffCaller().moderation.testFlag({ challenge: 999_999, flag: "flag{right}" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(staffCaller().moderation.testFlag({ challenge })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("a challenge marked solved by staff", () => {
  it("is a solve: points, solve count, the log (no flag, who marked it), audited; no first blood unless staff say so", async () => {
    const challenge = (await createChallenge(world, category, { score: 200 })).id;
    const [points] = await teamPoints(beta);
    const answer = await staffCaller().moderation.markSolved({ team: beta.id, challenge });
    expect(answer).toMatchObject({ points: 200, first_blood: false });
    expect((await teamPoints(beta))[0]).toBe(points! + 200);
    const view = await staffCaller().challenges.get({ id: challenge });
    expect(view).toMatchObject({ solve_count: 1, first_blood: null });
    const [logged] = (await staffCaller().moderation.submissions({ challenge })).results;
    expect(logged).toMatchObject({ correct: true, team: beta.id, user: beta.members[0]!.id, flag: null, marked_by: staff.username });
    expect((await audits("mark_solved")).at(-1)).toMatchObject({ userId: staff.id, extra: { team: beta.id, challenge, first_blood: false } });
    // The team's own page lists it as a solve; the next team to send the flag takes first blood.
    expect((await callerFor(world, beta.members[0]!).teams.get({ id: beta.id })).solves.map((s) => s.challenge)).toContain(challenge);
    await submit(gamma, challenge, "flag{right}");
    expect(await staffCaller().challenges.get({ id: challenge })).toMatchObject({ first_blood: gamma.name });
  });

  it("takes first blood when staff ask for it", async () => {
    const challenge = (await createChallenge(world, category)).id;
    expect(await staffCaller().moderation.markSolved({ team: gamma.id, challenge, first_blood: true })).toMatchObject({ first_blood: true });
    expect(await staffCaller().challenges.get({ id: challenge })).toMatchObject({ first_blood: gamma.name });
  });

  it("counts as a solve for decay: the value falls and earlier solvers are re-scored", async () => {
    const challenge = (await createChallenge(world, category, { score: 500, pointsType: "decay", flagMetadata: DECAY })).id;
    await submit(alpha, challenge, "flag{right}");
    const [before] = await teamPoints(alpha);
    await staffCaller().moderation.markSolved({ team: beta.id, challenge });
    const value = challengeValue("decay", 500, 2, DECAY);
    expect(await staffCaller().challenges.get({ id: challenge })).toMatchObject({ current_score: value });
    expect((await teamPoints(alpha))[0]).toBe(before! - challengeValue("decay", 500, 1, DECAY) + value);
  });

  it("makes one solve when the team sends the right flag at the same moment", async () => {
    for (let round = 0; round < 6; round++) {
      const challenge = (await createChallenge(world, category)).id;
      const results = await Promise.allSettled([staffCaller().moderation.markSolved({ team: alpha.id, challenge }), submit(alpha, challenge, "flag{right}", round % 2)]);
      const solved = results.filter((r) => r.status === "fulfilled");
      expect(solved).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toMatchObject(appCode("already_solved_challenge"));
      expect(await world.services.db.solve.count({ where: { challengeId: challenge } })).toBe(1);
      expect((await staffCaller().challenges.get({ id: challenge })).solve_count).toBe(1);
    }
  });

  it("refuses a second mark, a player, an unknown team or challenge, a member of another team: nothing changed", async () => {
    const challenge = (await createChallenge(world, category)).id;
    await staffCaller().moderation.markSolved({ team: alpha.id, challenge });
    const before = await footprint();
    await expect(staffCaller().moderation.markSolved({ team: alpha.id, challenge })).rejects.toMatchObject(appCode("already_solved_challenge"));
    await expect(callerFor(world, beta.members[0]!).moderation.markSolved({ team: beta.id, challenge })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(staffCaller().moderation.markSolved({ team: 999_999, challenge })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(staffCaller().moderation.markSolved({ team: beta.id, challenge: 999_999 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(staffCaller().moderation.markSolved({ team: beta.id, challenge, user: alpha.members[0]!.id })).rejects.toMatchObject(appCode("invalid"));
    await expect(staffCaller().moderation.markSolved({ team: beta.id })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await footprint()).toEqual(before);
  });
});

describe("awards", () => {
  it("move the team's points, board, graph and CTFtime score; removed, they are taken back; both audited", async () => {
    const [points, board] = await teamPoints(gamma);
    const award = await staffCaller().moderation.giveAward({ team: gamma.id, points: 150, reason: "Bug bounty: scoreboard XSS" });
    expect(award).toMatchObject({ team: gamma.id, points: 150, reason: "Bug bounty: scoreboard XSS", removed_at: null });
    expect(await teamPoints(gamma)).toEqual([points! + 150, board! + 150]);
    const anonymous = callerFor(world, null);
    const boardRow = async () => {
      const page = await anonymous.leaderboard.teams({ limit: 100, offset: 0 });
      if ("hidden" in page) throw new Error("hidden");
      return page.results.find((t) => t.id === gamma.id)?.leaderboard_points;
    };
    expect(await boardRow()).toBe(board! + 150);
    expect((await anonymous.teams.get({ id: gamma.id })).points).toBe(points! + 150);
    const graph = await anonymous.leaderboard.graph();
    if ("hidden" in graph) throw new Error("hidden");
    expect(graph.team?.filter((p) => p.team_id === gamma.id).reduce((sum, p) => sum + p.points, 0)).toBe(board! + 150);
    const feed = await ctftimeFeed(contextFor(world, null));
    if (!("standings" in feed)) throw new Error("no feed");
    expect(feed.standings.find((s) => s.team === gamma.name)?.score).toBe(board! + 150);
    expect(await anonymous.moderation.awards({ team: gamma.id })).toEqual([expect.objectContaining({ points: 150, reason: "Bug bounty: scoreboard XSS" })]);

    const penalty = await staffCaller().moderation.giveAward({ team: gamma.id, points: -40, reason: "Attacked the infrastructure" });
    expect(await teamPoints(gamma)).toEqual([points! + 110, board! + 110]);
    await staffCaller().moderation.removeAward({ id: penalty.id });
    expect(await teamPoints(gamma)).toEqual([points! + 150, board! + 150]);
    expect(await boardRow()).toBe(board! + 150);
    expect((await anonymous.moderation.awards({ team: gamma.id })).map((a) => a.points)).toEqual([150]);
    expect((await staffCaller().moderation.awards({ team: gamma.id })).map((a) => [a.points, a.removed_at !== null])).toEqual([
      [-40, true],
      [150, false],
    ]);
    expect((await audits("give_award")).map((a) => a.extra)).toEqual(expect.arrayContaining([expect.objectContaining({ team: gamma.id, points: -40 })]));
    expect((await audits("remove_award")).at(-1)).toMatchObject({ userId: staff.id, extra: { award: penalty.id, points: -40 } });
    await expect(staffCaller().moderation.removeAward({ id: penalty.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("for a player credit the player and their team", async () => {
    const player = beta.members[0]!;
    const userBefore = await world.services.db.user.findUniqueOrThrow({ where: { id: player.id }, select: { points: true } });
    const [teamBefore] = await teamPoints(beta);
    await staffCaller().moderation.giveAward({ user: player.id, points: 25, reason: "Writeup prize" });
    expect((await world.services.db.user.findUniqueOrThrow({ where: { id: player.id }, select: { points: true } })).points).toBe(userBefore.points + 25);
    expect((await teamPoints(beta))[0]).toBe(teamBefore! + 25);
    expect((await callerFor(world, null).moderation.awards({ user: player.id })).map((a) => a.username)).toEqual([player.username]);
    // The profile lists it, with the points and score line beside it; the team's page lists it too.
    const anonymous = callerFor(world, null);
    expect((await anonymous.moderation.awards({ user: player.id }))[0]).toMatchObject({ points: 25, reason: "Writeup prize", user: player.id, team: beta.id });
    expect((await anonymous.users.get({ id: player.id })).points).toBe(userBefore.points + 25);
    expect((await anonymous.users.stats({ id: player.id })).score.at(-1)).toMatchObject({ points: userBefore.points + 25 });
    expect((await anonymous.moderation.awards({ team: beta.id })).map((a) => a.reason)).toContain("Writeup prize");
    // Another player of the team has no awards of their own.
    expect(await anonymous.moderation.awards({ user: alpha.members[1]!.id })).toEqual([]);
  });

  it("refuse players and bad input, changing nothing", async () => {
    const before = await footprint();
    await expect(callerFor(world, alpha.members[0]!).moderation.giveAward({ team: alpha.id, points: 1000, reason: "me" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(staffCaller().moderation.giveAward({ team: alpha.id, points: 0, reason: "nothing" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staffCaller().moderation.giveAward({ team: alpha.id, points: 10, reason: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staffCaller().moderation.giveAward({ team: alpha.id, points: 1.5, reason: "half" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staffCaller().moderation.giveAward({ points: 10, reason: "whom?" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staffCaller().moderation.giveAward({ team: alpha.id, user: alpha.members[0]!.id, points: 10, reason: "both" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staffCaller().moderation.giveAward({ team: 999_999, points: 10, reason: "nobody" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(callerFor(world, alpha.members[0]!).moderation.removeAward({ id: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await footprint()).toEqual(before);
  });
});

describe("challenge statistics", () => {
  it("list every challenge, untried ones too, the solve rate being the share of teams that solved it", async () => {
    const untried = (await createChallenge(world, category)).id;
    const tried = (await createChallenge(world, category)).id;
    await submit(alpha, tried, "flag{right}");
    await submit(beta, tried, "flag{wrong}");
    const stats = await staffCaller().moderation.challengeStats();
    const teams = await world.services.db.team.count();
    expect(stats.teams).toBe(teams);
    expect(stats.challenges.find((c) => c.id === untried)).toMatchObject({ solves: 0, incorrect: 0, teams_tried: 0, solve_rate: 0 });
    expect(stats.challenges.find((c) => c.id === tried)).toMatchObject({ solves: 1, incorrect: 1, teams_tried: 2, solve_rate: Math.round((1 / teams) * 10_000) / 100 });
    expect(stats.challenges).toHaveLength(await world.services.db.challenge.count());
    await expect(callerFor(world, alpha.members[0]!).moderation.challengeStats()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("under the scoreboard freeze", () => {
  it("awards and staff-made solves after it are live for staff and hidden from players", async () => {
    const challenge = (await createChallenge(world, category, { score: 300 })).id;
    const anonymous = callerFor(world, null);
    const other = callerFor(world, alpha.members[0]!);
    const seen = async (caller: ReturnType<typeof callerFor>) => {
      const page = await caller.leaderboard.teams({ limit: 100, offset: 0 });
      if ("hidden" in page) throw new Error("hidden");
      return page.results.find((t) => t.id === gamma.id)?.leaderboard_points;
    };
    const atFreeze = await seen(anonymous);
    const awardsAtFreeze = (await anonymous.moderation.awards({ team: gamma.id })).length;
    const freeze = Math.ceil(Date.now() / 1000);
    while (Date.now() <= freeze * 1000 + 20) await new Promise((resolve) => setTimeout(resolve, 25));
    await staffCaller().config.set({ key: "scoreboard_freeze_time", value: freeze });

    // An award from before the freeze taken back after it still counts for players until the reveal.
    const earlier = (await staffCaller().moderation.awards({ team: gamma.id })).find((a) => a.removed_at === null)!;
    await staffCaller().moderation.removeAward({ id: earlier.id });
    await staffCaller().moderation.giveAward({ team: gamma.id, points: 1000, reason: "After the freeze" });
    await staffCaller().moderation.markSolved({ team: gamma.id, challenge, first_blood: true });
    expect(await seen(staffCaller())).toBe(atFreeze! + 1300 - earlier.points);
    for (const caller of [anonymous, other]) {
      expect(await seen(caller)).toBe(atFreeze);
      expect(await caller.moderation.awards({ team: gamma.id })).toHaveLength(awardsAtFreeze);
      const graph = await caller.leaderboard.graph();
      if ("hidden" in graph) throw new Error("hidden");
      expect(graph.team?.filter((p) => p.team_id === gamma.id).reduce((sum, p) => sum + p.points, 0)).toBe(atFreeze);
    }
    expect((await other.teams.get({ id: gamma.id })).leaderboard_points).toBe(atFreeze);
    expect(await other.challenges.get({ id: challenge })).toMatchObject({ first_blood: null, solve_count: 0 });
    const feed = await ctftimeFeed(contextFor(world, null));
    if (!("standings" in feed)) throw new Error("no feed");
    expect(feed.standings.find((s) => s.team === gamma.name)?.score).toBe(atFreeze);

  });
});
