import { describe, expect, it } from "vitest";
import type { TeamView } from "../teams/team-view.ts";
import type { SelfView } from "./get-self.ts";
import { OwnViews } from "./own-views.ts";

const TEAM = 7;
const USER = 3;

/** A loader and a recount that count their calls; `incorrect` is what the database would say. */
function source() {
  const calls = { load: 0, recount: 0 };
  let incorrect = 0;
  return {
    calls,
    set incorrect(n: number) {
      incorrect = n;
    },
    loadSelf: async () => {
      calls.load += 1;
      return { id: USER, username: "alex", incorrect_solves: incorrect, points: 10 } as unknown as SelfView;
    },
    loadTeam: async () => {
      calls.load += 1;
      return { id: TEAM, name: "team", incorrect_solves: incorrect, points: 10 } as unknown as TeamView;
    },
    recount: async () => {
      calls.recount += 1;
      return incorrect;
    },
  };
}

describe("own views after a wrong flag", () => {
  it("recount the wrong flags instead of rebuilding the profile, then serve the result from memory", async () => {
    const views = new OwnViews();
    const db = source();
    const first = await views.self(USER, TEAM, db.loadSelf, db.recount);
    expect(first.incorrect_solves).toBe(0);
    db.incorrect = 1;
    views.invalidate({ teamId: TEAM, attempts: true });
    const second = await views.self(USER, TEAM, db.loadSelf, db.recount);
    expect(second).toMatchObject({ username: "alex", points: 10, incorrect_solves: 1 });
    // A new object (encoded answers are kept per object), the old one unchanged.
    expect(second).not.toBe(first);
    expect(first.incorrect_solves).toBe(0);
    expect(await views.self(USER, TEAM, db.loadSelf, db.recount)).toBe(second);
    expect(db.calls).toEqual({ load: 1, recount: 1 });
  });

  it("recount the team's count the same way, and rebuild it after a solve", async () => {
    const views = new OwnViews();
    const db = source();
    await views.team(TEAM, db.loadTeam, db.recount);
    db.incorrect = 2;
    views.invalidate({ teamId: TEAM, attempts: true });
    expect((await views.team(TEAM, db.loadTeam, db.recount))?.incorrect_solves).toBe(2);
    views.invalidate({ teamId: TEAM });
    await views.team(TEAM, db.loadTeam, db.recount);
    expect(db.calls).toEqual({ load: 2, recount: 1 });
  });

  it("do not keep a recount another wrong flag overtook: the next read counts again", async () => {
    const views = new OwnViews();
    const db = source();
    await views.self(USER, TEAM, db.loadSelf, db.recount);
    db.incorrect = 1;
    views.invalidate({ teamId: TEAM, attempts: true });
    // The recount reads 1; a second wrong flag lands before its answer is back.
    const pending = views.self(USER, TEAM, db.loadSelf, db.recount);
    views.invalidate({ teamId: TEAM, attempts: true });
    db.incorrect = 2;
    await pending;
    expect((await views.self(USER, TEAM, db.loadSelf, db.recount)).incorrect_solves).toBe(2);
    expect(db.calls).toEqual({ load: 1, recount: 2 });
  });

  it("leave other teams' views alone", async () => {
    const views = new OwnViews();
    const db = source();
    await views.self(USER, TEAM, db.loadSelf, db.recount);
    views.invalidate({ teamId: TEAM + 1, attempts: true });
    await views.self(USER, TEAM, db.loadSelf, db.recount);
    expect(db.calls).toEqual({ load: 1, recount: 0 });
  });
});
