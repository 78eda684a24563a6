import { load, type Measurement, type Server, summarise } from "../harness.ts";
import type { Seeded } from "../seed.ts";

/** A GET as every player in turn. */
const GOAL = { rps: 4000, p99: 50 };

function asEachPlayer(server: Server, seeded: Seeded, path: string) {
  let n = 0;
  return load({
    url: server.urls,
    atRate: GOAL.rps,
    warmEach: seeded.tokens.length,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path, headers: { ...req.headers, authorization: `Token ${seeded.tokens[n++ % seeded.tokens.length]}` } }) }],
  });
}

/** GET /member/self/: the own profile with its solves, as every player in turn. */
export async function benchOwnProfile(server: Server, seeded: Seeded): Promise<Measurement> {
  const result = await asEachPlayer(server, seeded, "/api/v2/member/self/");
  return summarise(`Own profile /member/self/ (${seeded.tokens.length} players' tokens)`, result, GOAL);
}

/** GET /team/self/: the own team with its members and solves, as every player in turn. */
export async function benchOwnTeam(server: Server, seeded: Seeded): Promise<Measurement> {
  const result = await asEachPlayer(server, seeded, "/api/v2/team/self/");
  return summarise(`Own team /team/self/ (${seeded.tokens.length} players' tokens)`, result, GOAL);
}
