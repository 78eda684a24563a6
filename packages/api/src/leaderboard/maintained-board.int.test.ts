import type { Db } from "@flagship/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld } from "../testing/index.ts";
import { boardCache } from "./board.ts";

/**
 * The boards are maintained: a solve or a decay re-scoring patches the cached board (the moved
 * teams' and users' totals read again) instead of dropping it. After every change each page must
 * equal the board built fresh from the database; pages nobody moved across keep their objects (and
 * so their serialised JSON); many readers after a solve cost one query.
 */

let world: TestWorld;
let staff: TestUser;
let teams: TestTeam[];
let category: { id: number };

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  category = await createCategory(world);
  teams = [];
  for (let i = 0; i < 6; i++) teams.push(await createTeamWith(world, 2));
});
afterAll(() => world.close());

type Row = { id: number; name: string; leaderboard_points: number; leaderboard_group_name: string | null };

/** The team board as a fresh load orders it: straight from the database. */
async function freshTeamBoard(): Promise<Row[]> {
  const rows = await world.services.db.team.findMany({
    where: { isVisible: true },
    select: { id: true, name: true, leaderboardPoints: true, leaderboardGroup: { select: { name: true } } },
    orderBy: [{ leaderboardPoints: "desc" }, { lastScoreAt: { sort: "asc", nulls: "last" } }, { id: "asc" }],
  });
  return rows.map((t) => ({ id: t.id, name: t.name, leaderboard_points: t.leaderboardPoints, leaderboard_group_name: t.leaderboardGroup?.name ?? null }));
}

async function freshUserBoard() {
  const rows = await world.services.db.user.findMany({
    where: { isVisible: true, isActive: true, isStaff: false },
    select: { id: true, username: true, leaderboardPoints: true },
    orderBy: [{ leaderboardPoints: "desc" }, { lastScoreAt: { sort: "asc", nulls: "last" } }, { id: "asc" }],
  });
  return rows.map((u) => ({ id: u.id, username: u.username, leaderboard_points: u.leaderboardPoints }));
}

async function teamPage(offset: number, limit = 2) {
  const page = await callerFor(world, null).leaderboard.teams({ offset, limit });
  if ("hidden" in page) throw new Error("the board is hidden");
  return page;
}

async function expectBoardsFresh(): Promise<void> {
  const all = await teamPage(0, 1000);
  expect(all.results).toEqual(await freshTeamBoard());
  const users = await callerFor(world, null).leaderboard.users({ offset: 0, limit: 1000 });
  if ("hidden" in users) throw new Error("the board is hidden");
  expect(users.results).toEqual(await freshUserBoard());
}

async function solve(user: TestUser, challenge: { id: number }): Promise<void> {
  expect((await callerFor(world, user).challenges.submitFlag({ challenge: challenge.id, flag: "flag{right}" })).m).toBe("correct_flag");
}

describe("the maintained leaderboard", () => {
  it("is patched by each solve: every page equals a fresh board, pages nobody crossed keep their objects", async () => {
    // Teams 0..4 solve challenges worth 600, 500, 400, 300, 200; team 5 has nothing yet.
    for (let i = 0; i < 5; i++) await solve(teams[i]!.members[0]!, await createChallenge(world, category.id, { score: 600 - 100 * i }));
    await expectBoardsFresh();
    const before = [await teamPage(0), await teamPage(2), await teamPage(4)];
    expect(before[2]!.results.map((r) => r.id)).toEqual([teams[4]!.id, teams[5]!.id]);

    // Team 5 climbs to 250 points: past team 4 (200), not past team 3 (300).
    await solve(teams[5]!.members[1]!, await createChallenge(world, category.id, { score: 250 }));
    const after = [await teamPage(0), await teamPage(2), await teamPage(4)];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after[2]).not.toBe(before[2]);
    expect(after[2]!.results.map((r) => [r.id, r.leaderboard_points])).toEqual([
      [teams[5]!.id, 250],
      [teams[4]!.id, 200],
    ]);
    await expectBoardsFresh();

    // A tie on points goes to whoever got there first: team 4 reaches 400, after team 2.
    await solve(teams[4]!.members[0]!, await createChallenge(world, category.id, { score: 200 }));
    await expectBoardsFresh();
    expect((await teamPage(2)).results.map((r) => r.id)).toEqual([teams[2]!.id, teams[4]!.id]);
  });

  it("is patched by a decay re-scoring: every earlier solver's points move", async () => {
    const decay = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 50 } });
    for (const team of [teams[5]!, teams[3]!, teams[0]!]) {
      await solve(team.members[0]!, decay);
      await expectBoardsFresh();
    }
    const solvers = await world.services.db.solve.findMany({ where: { challengeId: decay.id }, select: { points: true } });
    // Every solver holds the current (decayed) value, and the board shows it.
    expect(new Set(solvers.map((s) => s.points)).size).toBe(1);
  });

  it("answers many readers after solves with one query per patch, and joins solves that arrive during a patch into the next", async () => {
    const { db, events } = world.services;
    let teamQueries = 0;
    let fullLoads = 0;
    // The board cache reads through whatever client the reader passes: count what it sends.
    const counting = new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === "$queryRaw") {
          return (strings: TemplateStringsArray, ...values: unknown[]) => {
            if (strings.join("?").includes("FROM teams")) teamQueries += 1;
            return (value as (s: TemplateStringsArray, ...v: unknown[]) => unknown).call(target, strings, ...values);
          };
        }
        if (prop === "team") {
          return new Proxy(value as object, {
            get(model, method, r) {
              const fn = Reflect.get(model, method, r) as unknown;
              if (method === "findMany") return (...args: unknown[]) => ((fullLoads += 1), (fn as (...a: unknown[]) => unknown).apply(model, args));
              return fn;
            },
          });
        }
        return value;
      },
    }) as Db;
    const cache = boardCache(world.services);
    const warm = await cache.get(counting, "team", null);
    const loadsBefore = fullLoads;

    // Three teams score at once (written directly, then announced as the scoring code does). The
    // first announcement starts a patch; the two that arrive while it reads wait for one more.
    const [a, b, c] = [teams[1]!, teams[2]!, teams[3]!];
    await db.team.update({ where: { id: a.id }, data: { leaderboardPoints: { increment: 1000 } } });
    await db.team.update({ where: { id: b.id }, data: { leaderboardPoints: { increment: 2000 } } });
    await db.team.update({ where: { id: c.id }, data: { leaderboardPoints: { increment: 3000 } } });
    for (const team of [a, b, c]) {
      await events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 1, team: team.id, user: team.members[0]!.id, challenge_id: 0 } });
    }
    const boards = await Promise.all(Array.from({ length: 50 }, () => cache.get(counting, "team", null)));
    expect(new Set(boards).size).toBe(1);
    expect(boards[0]).not.toBe(warm);
    expect(boards[0]!.slice(0, 3).map((e) => e.id)).toEqual([c.id, b.id, a.id]);
    expect(teamQueries).toBe(2);
    expect(fullLoads).toBe(loadsBefore);

    // A solve that moves nothing on the board (not scoring) keeps the very same board.
    await events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 1, team: a.id, user: a.members[0]!.id, challenge_id: 0 } });
    expect(await cache.get(counting, "team", null)).toBe(boards[0]);
    expect(teamQueries).toBe(3);
    await expectBoardsFresh();
  });

  it("moves at once on a solve's standings, with no query on the read path, then settles on the committed totals", async () => {
    const { events } = world.services;
    const cache = boardCache(world.services);
    await expectBoardsFresh();
    await cache.settled();
    const [a, b] = [teams[4]!, teams[5]!];
    const truth = await freshTeamBoard();
    const points = (id: number) => truth.find((t) => t.id === id)!.leaderboard_points;
    // Standings that no transaction wrote (as a late event from another copy would be): the board
    // shows them at the next read, without waiting on the database.
    const standings = (id: number, total: number) => ({ id, points: total, last: null, listed: true });
    await events.publish({
      kind: "socket",
      audience: { all: true },
      payload: { event_code: 1, team: a.id, user: a.members[0]!.id, challenge_id: 0 },
      standings: { teams: [standings(a.id, 90_000), standings(b.id, 80_000)], users: [] },
    });
    const moved = cache.get(world.services.db, "team", null);
    const first = await Promise.race([moved, Promise.resolve("not yet")]);
    expect(first).not.toBe("not yet");
    expect((first as { id: number }[]).slice(0, 2).map((e) => e.id)).toEqual([a.id, b.id]);
    // The background check reads the totals again and the board settles on what was committed.
    await cache.settled();
    expect((await teamPage(0, 1000)).results).toEqual(truth);
    expect(points(a.id)).toBeLessThan(90_000);
  });

  it("is never stale after a config or visibility change", async () => {
    await expectBoardsFresh();
    const staffCaller = callerFor(world, staff);
    await staffCaller.config.set({ key: "enable_scoreboard", value: false });
    try {
      expect(await callerFor(world, teams[0]!.members[0]!).leaderboard.teams({ offset: 0, limit: 10 })).toEqual({ hidden: true });
    } finally {
      await staffCaller.config.set({ key: "enable_scoreboard", value: true });
    }
    expect((await teamPage(0, 1000)).results.length).toBe((await freshTeamBoard()).length);

    const hidden = teams[5]!;
    await staffCaller.teams.staffUpdate({ id: hidden.id, patch: { is_visible: false } });
    expect((await teamPage(0, 1000)).results.some((r) => r.id === hidden.id)).toBe(false);
    await expectBoardsFresh();
    // A solve by the hidden team keeps it off the board.
    await solve(hidden.members[0]!, await createChallenge(world, category.id, { score: 10 }));
    expect((await teamPage(0, 1000)).results.some((r) => r.id === hidden.id)).toBe(false);
    await expectBoardsFresh();
    await staffCaller.teams.staffUpdate({ id: hidden.id, patch: { is_visible: true } });
    await expectBoardsFresh();
  });

  it("takes in a team it did not know (created behind its back) by building the board again", async () => {
    await expectBoardsFresh();
    const newcomer = await createTeamWith(world, 1);
    await solve(newcomer.members[0]!, await createChallenge(world, category.id, { score: 5000 }));
    expect((await teamPage(0)).results[0]!.id).toBe(newcomer.id);
    await expectBoardsFresh();
  });
});
