import { challengeValue } from "@flagship/shared";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCategory, createChallenge, createTeamWith, type TestTeam } from "../challenges/fixtures.ts";
import { callerFor, contextFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { boardCache } from "./board.ts";
import { ctftimeFeed } from "./leaderboard.ts";

/**
 * The scoreboard freeze on every tRPC path, read by a player of a third team and by an anonymous
 * visitor. Team "early" solves a decay challenge before the freeze; after it, team "late" solves it
 * too (its value falls, re-scoring early) and takes first blood of a second challenge; the third
 * team solves the decay challenge after the freeze as well, and sees that solve of its own, worth
 * what the challenge was worth at the freeze. Wrong flags are activity too: early's, before the
 * freeze, shows; late's, after it, does not. First bloods go to a local receiver standing in for
 * the Discord webhook: early's is posted, late's (after the freeze) is not. Staff see it all live;
 * the end of the event changes nothing, and once staff reveal the board everyone sees it all.
 */

const DECAY = { flag: "flag{right}", decay_constant: 0.5, min_points: 100 };
const value = (solves: number) => challengeValue("decay", 500, solves, DECAY);

let world: TestWorld;
let staff: TestUser;
let early: TestTeam;
let late: TestTeam;
let third: TestTeam;
let decay: number;
let fresh: number;
let earlyName: string;
let decayName: string;
let receiver: Server;
const posted: { content?: string }[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  [early, late, third] = [await createTeamWith(world, 1), await createTeamWith(world, 1), await createTeamWith(world, 1)];
  earlyName = early.name;
  const category = await createCategory(world);
  ({ id: decay, name: decayName } = await createChallenge(world, category.id, { score: 500, currentScore: 500, pointsType: "decay", flagMetadata: DECAY }));
  fresh = (await createChallenge(world, category.id, { score: 100 })).id;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      posted.push(JSON.parse(body) as { content?: string });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  await callerFor(world, staff).config.set({ key: "firstblood_webhook", value: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
  const submit = (team: TestTeam, challenge: number, flag = "flag{right}") => callerFor(world, team.members[0]!).challenges.submitFlag({ challenge, flag });
  await submit(early, fresh, "flag{wrong}");
  await submit(early, decay);
  // Early's first blood is announced before the freeze begins.
  for (let i = 0; i < 200 && posted.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  // The freeze falls on the next whole second (config times are in seconds), after early's solve.
  const freeze = Math.ceil(Date.now() / 1000);
  while (Date.now() <= freeze * 1000 + 20) await new Promise((resolve) => setTimeout(resolve, 25));
  await callerFor(world, staff).config.set({ key: "scoreboard_freeze_time", value: freeze });
  await submit(late, decay);
  await submit(late, fresh, "flag{wrong}");
  await submit(late, fresh);
  await submit(third, decay);
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await world.close();
});

/** The third team's player and an anonymous visitor: neither may learn of late's solves. */
const readers = () => [
  { who: "a player of a third team", caller: callerFor(world, third.members[0]!), ctx: contextFor(world, third.members[0]!) },
  { who: "an anonymous visitor", caller: callerFor(world, null), ctx: contextFor(world, null) },
];

function shown<T>(page: T | { hidden: true }): T {
  if (typeof page === "object" && page !== null && "hidden" in page) throw new Error("hidden");
  return page as T;
}

describe("a frozen scoreboard", () => {
  it("is live for staff: every solve, the decayed value, the new first blood", async () => {
    const caller = callerFor(world, staff);
    expect((await caller.teams.get({ id: late.id })).leaderboard_points).toBe(value(3) + 100);
    expect((await caller.teams.get({ id: early.id })).leaderboard_points).toBe(value(3));
    const challenge = await caller.challenges.get({ id: decay });
    expect(challenge).toMatchObject({ solve_count: 3, current_score: value(3) });
    expect(await caller.challenges.get({ id: fresh })).toMatchObject({ solve_count: 1, first_blood: late.name });
    expect(await caller.stats.stats()).toMatchObject({ correct_solve_count: 4, solve_count: 6 });
    expect((await caller.teams.get({ id: late.id })).incorrect_solves).toBe(1);
    expect((await caller.users.get({ id: late.members[0]!.id })).incorrect_solves).toBe(1);
  });

  it("gives staff the players' board too, when asked for it", async () => {
    const caller = callerFor(world, staff);
    const players = shown(await caller.leaderboard.teams({ limit: 100, offset: 0, players: true })).results;
    expect(players.find((t) => t.id === late.id)?.leaderboard_points).toBe(0);
    const users = shown(await caller.leaderboard.users({ limit: 100, offset: 0, players: true })).results;
    expect(users.find((u) => u.id === late.members[0]!.id)?.leaderboard_points).toBe(0);
    expect(shown(await caller.leaderboard.graph({ players: true })).team?.filter((p) => p.team_id !== early.id)).toEqual([]);
    const bloods = shown(await caller.leaderboard.firstBloods({ limit: 20, players: true })).results;
    expect(bloods.map((b) => b.challenge_id)).not.toContain(fresh);
    expect(shown(await caller.leaderboard.firstBloods({ limit: 20 })).results.map((b) => b.challenge_id)).toContain(fresh);
    const live = shown(await caller.leaderboard.teams({ limit: 100, offset: 0 })).results;
    expect(live.find((t) => t.id === late.id)?.leaderboard_points).toBe(value(3) + 100);
  });

  it("announces first bloods from before the freeze only", async () => {
    // Late's first blood of the fresh challenge came after the freeze: give a post time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posted.map((p) => p.content)).toEqual([`First blood on ${decayName}!`]);
  });

  it("shows boards, graph, matrix and the CTFtime feed as they stood at the freeze", async () => {
    for (const { who, caller, ctx } of readers()) {
      const teams = shown(await caller.leaderboard.teams({ limit: 100, offset: 0 })).results;
      expect({ who, teams: teams.map((t) => [t.name, t.leaderboard_points]) }).toEqual({
        who,
        teams: [
          [earlyName, value(1)],
          [late.name, 0],
          [third.name, 0],
        ],
      });
      const users = shown(await caller.leaderboard.users({ limit: 100, offset: 0 })).results;
      expect(users.find((u) => u.id === late.members[0]!.id)?.leaderboard_points).toBe(0);
      expect(users.find((u) => u.id === early.members[0]!.id)?.leaderboard_points).toBe(value(1));
      const graph = shown(await caller.leaderboard.graph());
      expect(graph.team?.filter((p) => p.team_id !== early.id)).toEqual([]);
      const matrix = shown(await caller.leaderboard.matrix({ limit: 100, offset: 0 })).results;
      expect(matrix.find((t) => t.id === late.id)?.solve_ids).toEqual([]);
      expect(matrix.find((t) => t.id === third.id)?.solve_ids).toEqual([]);
      // The feed's per-challenge points add up to its frozen totals.
      const feed = await ctftimeFeed(ctx);
      if (!("standings" in feed)) throw new Error("no feed");
      const standings = feed.standings.map((t) => [t.team, t.score, Object.fromEntries(Object.entries(t.taskStats).map(([name, task]) => [name, task.points]))]);
      expect({ who, standings }).toEqual({
        who,
        standings: [
          [earlyName, value(1), { [decayName]: value(1) }],
          [late.name, 0, {}],
          [third.name, 0, {}],
        ],
      });
    }
  });

  it("keeps other teams' later solves and their decay off team pages, lists and charts", async () => {
    for (const { who, caller } of readers()) {
      const lateView = await caller.teams.get({ id: late.id });
      expect({ who, points: lateView.points, board: lateView.leaderboard_points, solves: lateView.solves, incorrect: lateView.incorrect_solves }).toEqual({
        who,
        points: 0,
        board: 0,
        solves: [],
        incorrect: 0,
      });
      const earlyView = await caller.teams.get({ id: early.id });
      expect({ who, points: earlyView.leaderboard_points, solves: earlyView.solves.map((s) => s.points), incorrect: earlyView.incorrect_solves }).toEqual({
        who,
        points: value(1),
        solves: [value(1)],
        incorrect: 1,
      });
      const list = await caller.teams.list({ limit: 100 });
      const points = new Map(list.results.map((t) => [t.id, t.leaderboard_points]));
      expect({ who, early: points.get(early.id), late: points.get(late.id) }).toEqual({ who, early: value(1), late: 0 });
      const stats = await caller.teams.stats({ id: late.id });
      expect({ who, correct: stats.correct, incorrect: stats.incorrect, score: stats.score, members: stats.members.map((m) => m.points) }).toEqual({
        who,
        correct: 0,
        incorrect: 0,
        score: [],
        members: [0],
      });
      const earlyStats = await caller.teams.stats({ id: early.id });
      expect({ who, categories: earlyStats.categories.map((c) => c.points), members: earlyStats.members.map((m) => m.points) }).toEqual({
        who,
        categories: [value(1)],
        members: [value(1)],
      });
    }
  });

  it("keeps them off member pages, the member list and their charts", async () => {
    for (const { who, caller } of readers()) {
      const member = await caller.users.get({ id: late.members[0]!.id });
      expect({ who, points: member.points, board: member.leaderboard_points, solves: member.solves, incorrect: member.incorrect_solves }).toEqual({
        who,
        points: 0,
        board: 0,
        solves: [],
        incorrect: 0,
      });
      const earlyMember = await caller.users.get({ id: early.members[0]!.id });
      expect({ who, points: earlyMember.points, solves: earlyMember.solves.map((s) => s.points) }).toEqual({ who, points: value(1), solves: [value(1)] });
      const list = await caller.users.list({ limit: 100 });
      const points = new Map(list.results.map((m) => [m.id, m.leaderboard_points]));
      expect({ who, early: points.get(early.members[0]!.id), late: points.get(late.members[0]!.id) }).toEqual({ who, early: value(1), late: 0 });
      // Ordered by points, the list would rank by today's totals: it is ordered by name instead.
      const byPoints = await caller.users.list({ limit: 100, ordering: "-leaderboard_points" });
      expect(byPoints.results.map((m) => m.username)).toEqual([...byPoints.results.map((m) => m.username)].sort());
      const stats = await caller.users.stats({ id: late.members[0]!.id });
      expect({ who, correct: stats.correct, incorrect: stats.incorrect, score: stats.score }).toEqual({ who, correct: 0, incorrect: 0, score: [] });
    }
  });

  it("shows the challenge listing and the solve count as they stood at the freeze", async () => {
    const player = callerFor(world, third.members[0]!);
    const listed = (await player.challenges.categories()).flatMap((c) => c.challenges);
    expect(listed.find((c) => c.id === decay)).toMatchObject({ solve_count: 1, current_score: value(1), first_blood: earlyName, solved: true });
    expect(listed.find((c) => c.id === fresh)).toMatchObject({ solve_count: 0, current_score: 100, first_blood: null, solved: false });
    expect(await player.challenges.get({ id: fresh })).toMatchObject({ solve_count: 0, first_blood: null });
    for (const { who, caller } of readers()) {
      const stats = await caller.stats.stats();
      // Early's solve and early's wrong flag, both before the freeze.
      expect({ who, correct: stats.correct_solve_count, judged: stats.solve_count }).toEqual({ who, correct: 1, judged: 2 });
    }
  });

  it("shows a team its own later solves, worth what the challenge was worth at the freeze", async () => {
    const player = callerFor(world, third.members[0]!);
    const own = await player.teams.self();
    expect({ points: own?.points, board: own?.leaderboard_points, solves: own?.solves.map((s) => [s.challenge, s.points]) }).toEqual({
      points: value(1),
      board: value(1),
      solves: [[decay, value(1)]],
    });
    const self = await player.account.self();
    expect({ points: self.points, solves: self.solves.map((s) => s.points) }).toEqual({ points: value(1), solves: [value(1)] });
    const listed = await player.teams.list({ limit: 100 });
    expect(listed.results.find((t) => t.id === third.id)?.leaderboard_points).toBe(value(1));
    const stats = await player.teams.stats({ id: third.id });
    expect({ correct: stats.correct, score: stats.score.at(-1)?.points, members: stats.members.map((m) => m.points) }).toEqual({ correct: 1, score: value(1), members: [value(1)] });
    // Late sees its own wrong flag after the freeze, on its team and its member.
    const latePlayer = callerFor(world, late.members[0]!);
    expect((await latePlayer.teams.self())?.incorrect_solves).toBe(1);
    expect((await latePlayer.users.stats({ id: late.members[0]!.id })).incorrect).toBe(1);
    expect((await latePlayer.teams.stats({ id: late.id })).incorrect).toBe(1);
    // Early's own score does not fall through the decay the others caused.
    const earlyOwn = await callerFor(world, early.members[0]!).teams.self();
    expect(earlyOwn?.leaderboard_points).toBe(value(1));
  });

  it("sends later solves to the solving team and staff only, and their decay to staff only", () => {
    const solves = world.events.filter((e) => e.kind === "socket" && e.payload.event_code === 1);
    const scores = world.events.filter((e) => e.kind === "socket" && e.payload.event_code === 7);
    const audiences = solves.map((e) => (e.kind === "socket" ? [e.payload.team, e.audience, e.payload.challenge_score] : null));
    expect(audiences).toEqual([
      [early.id, { all: true }, value(1)],
      [late.id, { teamId: late.id, staff: true }, value(1)],
      [late.id, { teamId: late.id, staff: true }, 100],
      [third.id, { teamId: third.id, staff: true }, value(1)],
    ]);
    // Early's solve before the freeze was news for everyone; the decay after it, for staff only.
    expect(scores.map((e) => e.kind === "socket" && e.audience)).toEqual([{ all: true }, { staff: true }, { staff: true }]);
  });

  it("reads the snapshot once: later solves keep it, membership and challenge changes drop it", async () => {
    // A freeze two minutes ago: past the first minute, in which solves may still be landing on it.
    const at = new Date(Date.now() - 120_000);
    const cache = boardCache(world.services);
    const first = cache.snapshot(world.services.db, at);
    await first;
    await world.services.events.publish({
      kind: "socket",
      audience: { all: true },
      standings: { teams: [], users: [] },
      payload: { event_code: 1, team: late.id, user: late.members[0]!.id, challenge_id: decay },
    });
    await world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 7, challenge_id: decay, challenge_score: value(3) } });
    expect(cache.snapshot(world.services.db, at)).toBe(first);
    await world.services.events.publish({ kind: "internal", name: "membership_changed", data: {} });
    const second = cache.snapshot(world.services.db, at);
    expect(second).not.toBe(first);
    // Read again, it is the same: what is live less what was recorded after the freeze.
    expect(await second).toEqual(await first);
    await world.services.events.publish({ kind: "internal", name: "challenges_changed" });
    expect(cache.snapshot(world.services.db, at)).not.toBe(second);
  });

  it("stays frozen after the end: boards, graph, CTFtime feed, statistics and listing", async () => {
    await callerFor(world, staff).config.set({ key: "end_time", value: Math.floor(Date.now() / 1000) - 1 });
    for (const { who, caller, ctx } of readers()) {
      const board = shown(await caller.leaderboard.teams({ limit: 100, offset: 0 })).results;
      expect({ who, late: board.find((t) => t.id === late.id)?.leaderboard_points, early: board.find((t) => t.id === early.id)?.leaderboard_points }).toEqual({
        who,
        late: 0,
        early: value(1),
      });
      expect({ who, graph: shown(await caller.leaderboard.graph()).team?.filter((p) => p.team_id !== early.id) }).toEqual({ who, graph: [] });
      const feed = await ctftimeFeed(ctx);
      if (!("standings" in feed)) throw new Error("no feed");
      expect({ who, late: feed.standings.find((t) => t.team === late.name)?.score }).toEqual({ who, late: 0 });
      expect({ who, solves: (await caller.stats.stats()).correct_solve_count }).toEqual({ who, solves: 1 });
      expect({ who, late: (await caller.teams.get({ id: late.id })).leaderboard_points }).toEqual({ who, late: 0 });
    }
    expect(await callerFor(world, third.members[0]!).challenges.get({ id: decay })).toMatchObject({ solve_count: 1, current_score: value(1) });
  });

  it("is revealed by staff with one audited action, not by players, and only once", async () => {
    const player = callerFor(world, third.members[0]!);
    await expect(player.leaderboard.reveal()).rejects.toMatchObject({ code: "FORBIDDEN" });
    const freezeAt = await callerFor(world, staff).config.get({ key: "scoreboard_freeze_time" });
    await callerFor(world, staff).leaderboard.reveal();
    const entry = await world.services.db.auditLog.findFirst({ where: { action: "reveal_scoreboard", userId: staff.id } });
    expect(entry?.extra).toEqual({ key: "scoreboard_freeze_time", old_value: freezeAt, new_value: null });
    await expect(callerFor(world, staff).leaderboard.reveal()).rejects.toMatchObject({ cause: { code: "not_frozen" } });
    expect(await world.services.db.auditLog.count({ where: { action: "reveal_scoreboard", userId: staff.id } })).toBe(1);
  });

  it("shows everything once revealed", async () => {
    for (const { who, caller } of readers()) {
      const lateView = await caller.teams.get({ id: late.id });
      expect({ who, points: lateView.leaderboard_points, incorrect: lateView.incorrect_solves }).toEqual({ who, points: value(3) + 100, incorrect: 1 });
      const board = shown(await caller.leaderboard.teams({ limit: 100, offset: 0 })).results;
      expect({ who, early: board.find((t) => t.id === early.id)?.leaderboard_points }).toEqual({ who, early: value(3) });
      expect({ who, solves: (await caller.stats.stats()).correct_solve_count }).toEqual({ who, solves: 4 });
    }
    const player = callerFor(world, third.members[0]!);
    expect(await player.challenges.get({ id: decay })).toMatchObject({ solve_count: 3, current_score: value(3) });
    expect((await player.teams.self())?.leaderboard_points).toBe(value(3));
  });
});
