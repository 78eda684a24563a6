import { load, type Measurement, type Server, summarise } from "../harness.ts";
import type { Seeded } from "../seed.ts";
import { startSolving } from "./solving.ts";

const GOAL = { rps: 15000, p99: 50 };

function boardPages(server: Server, teams: number) {
  const pages = Math.ceil(teams / 100);
  let n = 0;
  return load({
    url: server.urls,
    atRate: GOAL.rps,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/api/v2/leaderboard/team/?limit=100&offset=${(n++ % pages) * 100}` }) }],
  });
}

/** The team leaderboard, 100 per page, over the whole board, with nothing changing. */
export async function benchLeaderboard(server: Server, seeded: Seeded): Promise<Measurement> {
  const result = await boardPages(server, seeded.counts.teams);
  return summarise(`Team leaderboard page (100 of ${seeded.counts.teams} teams), no solves`, result, GOAL);
}

/** The same pages while correct flags arrive (20 a second), each changing the board. */
export async function benchLeaderboardUnderSolves(server: Server, seeded: Seeded): Promise<Measurement> {
  const solving = startSolving(server, seeded, 20);
  const result = await boardPages(server, seeded.counts.teams);
  const solved = await solving.stop();
  const m = summarise(`Team leaderboard page (100 of ${seeded.counts.teams} teams) while ${solved.perSecond} solves/s happen`, result, GOAL);
  if (solved.failed > 0) return { ...m, errors: m.errors + solved.failed, met: false };
  return m;
}
