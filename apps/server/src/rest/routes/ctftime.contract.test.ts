import { createUser, recordSolve, seedChallenges, type TestUser } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../../testing.ts";

/** The CTFtime feed is public: it must not give away what players cannot see. */
let server: TestServer;
let staff: TestUser;
let player: TestUser;
let names: { open: string; locked: string; secret: string };
const at = new Date(Date.UTC(2030, 0, 1, 12));

interface Feed {
  tasks: string[];
  standings: { pos: number; team: string; score: number; taskStats: Record<string, { points: number; time: number }>; lastAccept: number }[];
}

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.world.services;
  staff = await createUser(server.world, { isStaff: true });
  const team = await db.team.create({ data: { name: "alpha", password: "secretsecret" } });
  player = await createUser(server.world, { teamId: team.id });
  const [open, locked, secret] = await seedChallenges(server.world, [10, 20, 30]);
  await db.challenge.update({ where: { id: locked!.id }, data: { unlockRequirements: String(open!.id) } });
  await db.challenge.update({ where: { id: secret!.id }, data: { hidden: true } });
  names = { open: open!.name, locked: locked!.name, secret: secret!.name };
  await recordSolve(server.world, { userId: player.id, teamId: team.id, challenge: open!, at });
  await recordSolve(server.world, { userId: player.id, teamId: team.id, challenge: locked!, at: new Date(at.getTime() + 60_000) });
});
afterAll(() => server.close());

describe("GET /leaderboard/ctftime/", () => {
  it("names only challenges every player can see: none hidden, none locked; their points still count", async () => {
    const feed = (await server.api("GET", "/leaderboard/ctftime/")).body as unknown as Feed;
    expect(feed.tasks).toEqual([names.open]);
    expect(JSON.stringify(feed)).not.toContain(names.locked);
    expect(JSON.stringify(feed)).not.toContain(names.secret);
    expect(feed.standings).toEqual([
      { pos: 1, team: "alpha", score: 30, taskStats: { [names.open]: { points: 10, time: at.getTime() / 1000 } }, lastAccept: at.getTime() / 1000 },
    ]);
  });

  it("names locked challenges to staff, never hidden ones", async () => {
    const feed = (await server.api("GET", "/leaderboard/ctftime/", { token: staff.token })).body as unknown as Feed;
    expect(feed.tasks).toEqual([names.open, names.locked]);
  });

  it("is {} before the event starts, except to staff", async () => {
    await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: Math.floor(Date.now() / 1000) + 3600 } });
    try {
      expect((await server.api("GET", "/leaderboard/ctftime/")).body).toEqual({});
      expect((await server.api("GET", "/leaderboard/ctftime/", { token: player.token })).body).toEqual({});
      expect(((await server.api("GET", "/leaderboard/ctftime/", { token: staff.token })).body as unknown as Feed).tasks).toEqual([names.open, names.locked]);
    } finally {
      await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: null } });
    }
  });
});
