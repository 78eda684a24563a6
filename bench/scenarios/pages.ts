import { load, type LoadOptions, type Measurement, type Server, summarise } from "../harness.ts";
import type { Seeded } from "../seed.ts";

/**
 * Pages drawn on the server. A signed-in player's page is drawn for them alone (their session
 * cookie: the challenge list, a challenge, the leaderboard, their team, in turn, as every player in
 * turn); a visitor's page (the home page, the login page, the leaderboard) is the same for every
 * visitor and is drawn once a second at most. Pages are asked for as a browser asks (brotli or
 * gzip), so their compression is in the cost. What a page costs the server is its CPU time per page
 * (`cpuMsPerRequest`).
 */
export const PLAYER_PAGES_GOAL = { rps: 100, p99: 1000 };
export const VISITOR_PAGES_GOAL = { rps: 2000, p99: 100 };

/** The pages a signed-in player loads: the challenge list, a category, a challenge, the leaderboard, their team. */
export function playerPages(shown: { category: number; challenge: number }): string[] {
  return ["/campaign", `/campaign/${shown.category}`, `/campaign/${shown.category}/${shown.challenge}`, "/leaderboard", "/team"];
}

/** The pages a visitor loads: the home page, the login page, the leaderboard. */
export const VISITOR_PAGES: readonly string[] = ["/", "/login", "/leaderboard"];

/** A page load's headers, as a browser sends them: compressed, and signed in with the session cookie when there is a token. */
export function pageHeaders(token?: string): Record<string, string> {
  return { "accept-encoding": "br, gzip", ...(token && { cookie: `flagship.session=${token}` }) };
}

/** The pages a signed-in player loads: as every player in turn, each page of the list in turn. */
export function playerPageLoad(seeded: Seeded, shown: { category: number; challenge: number }): Pick<LoadOptions, "requests"> {
  const paths = playerPages(shown);
  let n = 0;
  return {
    requests: [
      {
        method: "GET",
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            path: paths[i % paths.length]!,
            headers: { ...req.headers, ...pageHeaders(seeded.tokens[Math.floor(i / paths.length) % seeded.tokens.length]) },
          };
        },
      },
    ],
  };
}

/** A visitor's pages, in turn. */
export function visitorPageLoad(): Pick<LoadOptions, "requests"> {
  let n = 0;
  return { requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: VISITOR_PAGES[n++ % VISITOR_PAGES.length]!, headers: { ...req.headers, ...pageHeaders() } }) }] };
}

/** The seeded event's first category with a challenge, as a player sees it. */
export async function firstShown(baseUrl: string, token: string): Promise<{ category: number; challenge: number }> {
  const res = await fetch(`${baseUrl}/api/v2/challenges/categories/`, { headers: { authorization: `Token ${token}` } });
  const body = (await res.json()) as { d: { id: number; challenges: { id: number }[] }[] };
  const category = body.d.find((c) => c.challenges.length > 0);
  if (!category) throw new Error("the seeded event has no challenges");
  return { category: category.id, challenge: category.challenges[0]!.id };
}

export async function benchPlayerPages(server: Server, seeded: Seeded): Promise<Measurement> {
  const shown = await firstShown(server.urls[0]!, seeded.tokens[0]!);
  const result = await load({ ...playerPageLoad(seeded, shown), url: server.urls, connections: 20, warmEach: 50, atRate: PLAYER_PAGES_GOAL.rps });
  return summarise(`Pages drawn for signed-in players (challenge list, a category, a challenge, leaderboard, own team; ${seeded.tokens.length} players)`, result, PLAYER_PAGES_GOAL);
}

export async function benchVisitorPages(server: Server): Promise<Measurement> {
  const result = await load({ ...visitorPageLoad(), url: server.urls, warmEach: 30, atRate: VISITOR_PAGES_GOAL.rps });
  return summarise("Pages drawn for visitors (home, login, leaderboard; kept a second and served again)", result, VISITOR_PAGES_GOAL);
}
