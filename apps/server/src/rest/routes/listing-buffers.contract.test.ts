import { createCategory, createChallenge, createTeamWith, type TestTeam } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../../testing.ts";

/**
 * Listings are put together in reused buffers: answers sent at once, to teams that see different
 * listings, must each carry their own team's listing, whole, however the buffers go round.
 */
let server: TestServer;
let url: string;
let teams: TestTeam[];
let ids: number[];

beforeAll(async () => {
  server = await createTestServer();
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const address = server.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  url = `http://127.0.0.1:${address.port}/api/v2`;
  const category = await createCategory(server.world);
  ids = [];
  for (let i = 0; i < 40; i++) ids.push((await createChallenge(server.world, category.id, { score: 100 + i, description: "d".repeat(2000) })).id);
  teams = [await createTeamWith(server.world, 1), await createTeamWith(server.world, 1), await createTeamWith(server.world, 1)];
  // Each team solves a different share of the challenges, so their listings differ byte for byte.
  for (const [t, team] of teams.entries()) {
    for (const id of ids.filter((_, i) => i % 3 === t)) {
      const res = await fetch(`${url}/challenges/submit_flag/`, {
        method: "POST",
        headers: { authorization: `Token ${team.members[0]!.token}`, "content-type": "application/json" },
        body: JSON.stringify({ challenge: id, flag: "flag{right}" }),
      });
      expect(((await res.json()) as { m: string }).m).toBe("correct_flag");
    }
  }
}, 120_000);
afterAll(() => server.close());

describe("listings in reused buffers", () => {
  it("answers 300 listings sent 60 at a time for three teams, each whole and its own team's", async () => {
    const solvedBy = async (team: TestTeam) => {
      const res = await fetch(`${url}/challenges/categories/`, { headers: { authorization: `Token ${team.members[0]!.token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { s: boolean; d: { challenges: { id: number; solved: boolean }[] }[] };
      expect(body.s).toBe(true);
      return body.d.flatMap((c) => c.challenges).filter((c) => ids.includes(c.id) && c.solved).map((c) => c.id);
    };
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => solvedBy(teams[i % 3]!)));
      for (const [i, solved] of answers.entries()) expect(solved).toEqual(ids.filter((_, n) => n % 3 === i % 3));
    }
  });
});
