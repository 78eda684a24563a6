import type { Db } from "@flagship/db";
import { load, type Measurement, type Server, summarise } from "../harness.ts";

export const TEAMS = 2000;

/** 2000 visible teams with distinct scores and score times. */
export async function seedLeaderboard(db: Db): Promise<void> {
  await db.$executeRaw`
    INSERT INTO teams (name, password, leaderboard_points, points, last_score_at)
    SELECT 'board-team-' || i, 'secretsecret', (i * 37) % 5000, (i * 37) % 5000, now() - (i || ' seconds')::interval
      FROM generate_series(1, ${TEAMS}) AS i`;
}

/** The team leaderboard, 100 per page, over the whole board. */
export async function benchLeaderboard(server: Server): Promise<Measurement> {
  const pages = TEAMS / 100;
  let n = 0;
  const result = await load({
    url: server.baseUrl,
    connections: 100,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/api/v2/leaderboard/team/?limit=100&offset=${(n++ % pages) * 100}` }) }],
  });
  return summarise(`Team leaderboard page (100 of ${TEAMS} teams)`, result, { rps: 5000, p99: 50 });
}
