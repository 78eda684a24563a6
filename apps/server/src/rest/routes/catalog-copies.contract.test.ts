import { challengeValue } from "@flagship/shared";
import { createCategory, createChallenge, createTeamWith, createTestWorld, type TestTeam, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { openSocket, type RecordingSocket } from "../../realtime/ws-client.ts";
import { type ServerCopy, startServerCopy } from "../../testing.ts";

/**
 * A solve moves every copy's cached challenge catalog (solve count, a decay challenge's value,
 * first blood) in place, without reading the catalog again: two copies behind one Redis, solves
 * on either, listings from both.
 */
let world: TestWorld;
let copies: ServerCopy[] = [];
let sockets: RecordingSocket[] = [];
let teams: TestTeam[];
let challenge: { id: number };
const decay = { decay_constant: 0.5, min_points: 100 };

beforeAll(async () => {
  world = await createTestWorld();
  // Written before the copies start, as staff's writes through a copy would have told them: the
  // test world's own writes reach no copy's cache.
  const category = await createCategory(world);
  challenge = await createChallenge(world, category.id, { score: 500, pointsType: "decay", flagMetadata: { flag: "flag{right}", ...decay } });
  teams = [];
  for (let i = 0; i < 3; i++) teams.push(await createTeamWith(world, 1));
  const redisUrl = testRedisUrl(inject("redisUrl"));
  const start = () => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: redisUrl });
  copies = await Promise.all([start(), start()]);
  sockets = await Promise.all(copies.map((copy) => openSocket(`ws://127.0.0.1:${copy.port}/api/v2/ws/`)));
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

interface Listed {
  id: number;
  description?: string;
  solve_count: number;
  current_score: number;
  first_blood: string | null;
}

/** A challenge as a copy's category listing shows it to `team`'s first member. */
async function listed(copy: ServerCopy, team: TestTeam, id: number): Promise<Listed> {
  const res = await fetch(`${copy.url}/api/v2/challenges/categories/`, { headers: { authorization: `Token ${team.members[0]!.token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { d: { challenges: Listed[] }[] };
  const found = body.d.flatMap((c) => c.challenges).find((c) => c.id === id);
  if (!found) throw new Error(`challenge ${id} is not listed`);
  return found;
}

/** Sends the right flag on `copy` and waits until both copies have the solve's event. */
async function solve(copy: ServerCopy, team: TestTeam, id: number): Promise<void> {
  const res = await fetch(`${copy.url}/api/v2/challenges/submit_flag/`, {
    method: "POST",
    headers: { authorization: `Token ${team.members[0]!.token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge: id, flag: "flag{right}" }),
  });
  expect(((await res.json()) as { m: string }).m).toBe("correct_flag");
  await Promise.all(sockets.map((socket) => socket.waitFor((e) => e.event_code === 1 && e.challenge_id === id && e.team === team.id)));
}

describe("the catalog after solves on two copies", () => {
  it("shows the new solve count, value and first blood on both copies, patched in place rather than read again", async () => {
    const before = await Promise.all(copies.map((copy) => listed(copy, teams[2]!, challenge.id)));
    expect(before.map((c) => [c.solve_count, c.current_score, c.first_blood])).toEqual([
      [0, 500, null],
      [0, 500, null],
    ]);
    // Behind the caches' back: a full read of the catalog would show this text; a patch does not.
    await world.services.db.challenge.update({ where: { id: challenge.id }, data: { description: "changed behind the cache" } });

    await solve(copies[0]!, teams[0]!, challenge.id);
    const after = (copy: ServerCopy) =>
      expect.poll(async () => {
        const c = await listed(copy, teams[2]!, challenge.id);
        return [c.solve_count, c.current_score, c.first_blood, c.description];
      });
    const once = challengeValue("decay", 500, 1, decay);
    await after(copies[0]!).toEqual([1, once, teams[0]!.name, before[0]!.description]);
    await after(copies[1]!).toEqual([1, once, teams[0]!.name, before[1]!.description]);

    // The second solve, on the other copy: the count and the decayed value move, first blood stays.
    await solve(copies[1]!, teams[1]!, challenge.id);
    const twice = challengeValue("decay", 500, 2, decay);
    expect(twice).toBeLessThan(once);
    await after(copies[1]!).toEqual([2, twice, teams[0]!.name, before[1]!.description]);
    await after(copies[0]!).toEqual([2, twice, teams[0]!.name, before[0]!.description]);

  });
});
