import { describe, expect, it } from "vitest";
import type { TeamView } from "../teams/team-view.ts";
import type { SelfView } from "./get-self.ts";
import { OwnViews } from "./own-views.ts";

const TEAM = 7;
const USER = 3;
const MATE = 4;

/** Loaders that count their calls; `incorrect` is the total the database would say. */
function source() {
  const calls = { load: 0 };
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
  };
}

const wrongFlag = (team: number, user: number, userId = USER, teamId = TEAM) => ({ attempts: { teamId, team, userId, user } });

describe("own views after a wrong flag", () => {
  it("take the new totals in place, with no read of the database", async () => {
    const views = new OwnViews();
    const db = source();
    const first = await views.self(USER, TEAM, db.loadSelf);
    await views.team(TEAM, db.loadTeam);
    views.invalidate(wrongFlag(1, 1));
    const second = await views.self(USER, TEAM, db.loadSelf);
    expect(second).toMatchObject({ username: "alex", points: 10, incorrect_solves: 1 });
    // A new object (encoded answers are kept per object), the old one unchanged.
    expect(second).not.toBe(first);
    expect(first.incorrect_solves).toBe(0);
    expect((await views.team(TEAM, db.loadTeam))?.incorrect_solves).toBe(1);
    expect(db.calls).toEqual({ load: 2 });
  });

  it("keep the highest total whatever order the events arrive in", async () => {
    const views = new OwnViews();
    const db = source();
    await views.team(TEAM, db.loadTeam);
    // Two copies recorded the team's third and fourth wrong flags; the fourth's event comes first.
    views.invalidate(wrongFlag(4, 2, MATE));
    views.invalidate(wrongFlag(3, 1));
    expect((await views.team(TEAM, db.loadTeam))?.incorrect_solves).toBe(4);
    // The user's own total is theirs alone: the mate's flag did not change it.
    expect((await views.self(USER, TEAM, db.loadSelf)).incorrect_solves).toBe(1);
  });

  it("give a view built while a total was on its way the highest total heard", async () => {
    const views = new OwnViews();
    const db = source();
    // The build reads 0, and the wrong flag's event arrives before the build is back.
    const pending = views.team(TEAM, db.loadTeam);
    views.invalidate(wrongFlag(1, 1));
    expect((await pending)?.incorrect_solves).toBe(1);
    expect((await views.team(TEAM, db.loadTeam))?.incorrect_solves).toBe(1);
    expect(db.calls).toEqual({ load: 1 });
  });

  it("never lower a count a build read higher", async () => {
    const views = new OwnViews();
    const db = source();
    db.incorrect = 5;
    await views.self(USER, TEAM, db.loadSelf);
    views.invalidate(wrongFlag(3, 3));
    expect((await views.self(USER, TEAM, db.loadSelf)).incorrect_solves).toBe(5);
  });

  it("forget the totals heard when every view is dropped", async () => {
    const views = new OwnViews();
    const db = source();
    views.invalidate(wrongFlag(9, 9));
    views.invalidate({ all: true });
    expect((await views.team(TEAM, db.loadTeam))?.incorrect_solves).toBe(0);
  });

  it("leave other teams' views alone, and rebuild after a solve", async () => {
    const views = new OwnViews();
    const db = source();
    await views.self(USER, TEAM, db.loadSelf);
    views.invalidate(wrongFlag(1, 1, 99, TEAM + 1));
    expect((await views.self(USER, TEAM, db.loadSelf)).incorrect_solves).toBe(0);
    views.invalidate({ teamId: TEAM });
    await views.self(USER, TEAM, db.loadSelf);
    expect(db.calls).toEqual({ load: 2 });
  });
});
