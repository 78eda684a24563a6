import autocannon from "autocannon";
import WebSocket from "ws";
import { load, type Measurement, memoryMiB, run, type Server, summarise, watchMemory } from "../harness.ts";
import type { Seeded } from "../seed.ts";
import { firstShown, pageHeaders, playerPages, VISITOR_PAGES } from "./pages.ts";

/**
 * The middle of an event, all at once: per 150 requests, 30 challenge listings, 30 wrong flags,
 * 1 correct flag (so the catalog, the boards and the teams' views change during the run), 37
 * leaderboard pages, 25 own profiles and 22 own teams, each as the next player in turn, and 5 page
 * loads (a browser opening the site: 4 pages drawn for a signed-in player, their session cookie,
 * and 1 visitor's page, compressed as a browser takes them); and one websocket per player, signed
 * in, receiving the solves. One correct flag in 150 is 20 solves a second at the goal's 3000
 * requests a second (the rate of the leaderboard-under-solves scenario, and 72000 solves an hour,
 * fourteen times the seeded event's whole count); every solve goes to all 2000 sockets, 40000
 * websocket messages a second.
 */
export const MIX: [kind: "listing" | "wrong" | "correct" | "board" | "self" | "team" | "page" | "visitor-page", weight: number][] = [
  ["listing", 30],
  ["wrong", 30],
  ["correct", 1],
  ["board", 37],
  ["self", 25],
  ["team", 22],
  ["page", 4],
  ["visitor-page", 1],
];

export function mixedRequests(seeded: Seeded, shown: { category: number; challenge: number }): autocannon.Request[] {
  const players = playerPages(shown);
  let pageN = 0;
  let visitorN = 0;
  const kinds = MIX.flatMap(([kind, weight]) => Array<typeof kind>(weight).fill(kind));
  // Interleave so each connection's cycle mixes kinds rather than running them in blocks.
  const order = kinds.map((kind, i) => ({ kind, key: (i * 37) % kinds.length })).sort((a, b) => a.key - b.key);
  const pages = Math.ceil(seeded.counts.teams / 100);
  let n = 0;
  let page = 0;
  const wrongFlag = (req: autocannon.Request, player: number) => {
    const teamId = seeded.players[player]!.teamId;
    const solved = seeded.solved.get(teamId)!;
    if (solved.has(seeded.openChallenge[player]!)) seeded.openChallenge[player] = seeded.challenges.find((c) => !solved.has(c.id))?.id ?? seeded.openChallenge[player]!;
    return {
      ...req,
      method: "POST" as const,
      path: "/api/v2/challenges/submit_flag/",
      headers: { ...req.headers, authorization: `Token ${seeded.tokens[player]}`, "content-type": "application/json" },
      body: JSON.stringify({ challenge: seeded.openChallenge[player], flag: "flag{not-the-flag}" }),
    };
  };
  return order.map(({ kind }) => ({
    method: "GET" as const,
    setupRequest: (req: autocannon.Request) => {
      const player = n++ % seeded.tokens.length;
      const auth = { ...req.headers, authorization: `Token ${seeded.tokens[player]}` };
      switch (kind) {
        case "listing":
          return { ...req, method: "GET" as const, path: "/api/v2/challenges/categories/", headers: auth };
        case "wrong":
          return wrongFlag(req, player);
        case "correct": {
          const next = seeded.takeSolve();
          if (!next) return wrongFlag(req, player);
          return {
            ...req,
            method: "POST" as const,
            path: "/api/v2/challenges/submit_flag/",
            headers: { ...req.headers, authorization: `Token ${next.token}`, "content-type": "application/json" },
            body: JSON.stringify({ challenge: next.challenge, flag: next.flag }),
            once: true,
          };
        }
        case "board":
          return { ...req, method: "GET" as const, path: `/api/v2/leaderboard/team/?limit=100&offset=${(page++ % pages) * 100}`, headers: auth };
        case "self":
          return { ...req, method: "GET" as const, path: "/api/v2/member/self/", headers: auth };
        case "team":
          return { ...req, method: "GET" as const, path: "/api/v2/team/self/", headers: auth };
        case "page":
          return {
            ...req,
            method: "GET" as const,
            path: players[pageN++ % players.length]!,
            headers: { ...req.headers, ...pageHeaders(seeded.tokens[player]) },
          };
        case "visitor-page":
          return { ...req, method: "GET" as const, path: VISITOR_PAGES[visitorN++ % VISITOR_PAGES.length]!, headers: { ...req.headers, ...pageHeaders() } };
      }
    },
  }));
}

export const MIXED_GOAL = { rps: 3000, p99: 100, rssMiB: 300 };

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
export const lcm = (a: number, b: number) => (a / gcd(a, b)) * b;

interface Sockets {
  count: number;
  received(): number;
  close(): void;
}

/** One websocket per player, each sending its token so it joins its team's channel; dealt out to the server's copies in turn. */
export async function openSockets(server: Pick<Server, "urls">, seeded: Seeded): Promise<Sockets> {
  const urls = server.urls.map((base) => `${base.replace("http", "ws")}/api/v2/ws/`);
  let dealt = 0;
  const sockets: WebSocket[] = [];
  let received = 0;
  const connect = (token: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(urls[dealt++ % urls.length]!);
      socket.once("message", () => {
        socket.send(JSON.stringify({ token }));
        socket.on("message", () => {
          received += 1;
        });
        resolve(socket);
      });
      socket.once("error", reject);
    });
  for (let i = 0; i < seeded.tokens.length; i += 250) {
    sockets.push(...(await Promise.all(seeded.tokens.slice(i, i + 250).map(connect))));
  }
  return {
    count: sockets.length,
    received: () => received,
    close: () => {
      for (const socket of sockets) socket.terminate();
    },
  };
}

/** How every copy has answered pages so far (flagship_pages_total), with BENCH_PAGE_STATS=1; else null. */
export async function pagesAnswered(server: Pick<Server, "metricsUrls">): Promise<Record<"drawn" | "kept" | "over_budget", number> | null> {
  if (server.metricsUrls.length === 0) return null;
  const sum = { drawn: 0, kept: 0, over_budget: 0 };
  for (const url of server.metricsUrls) {
    const text = await (await fetch(url)).text();
    for (const match of text.matchAll(/^flagship_pages_total\{how="(drawn|kept|over_budget)"\} (\d+)/gm)) sum[match[1] as keyof typeof sum] += Number(match[2]);
  }
  return sum;
}

/** The mixed workload: warm-up, three passes. */
export async function benchMixed(server: Server, seeded: Seeded): Promise<Measurement> {
  const sockets = await openSockets(server, seeded);
  try {
    // Player n takes the request kinds at n's places in the 150-request cycle: the warm-up sends
    // each (player, kind) pair of the cycle once, as the first minutes of an event would have.
    const cycle = MIX.reduce((sum, [, weight]) => sum + weight, 0);
    const shown = await firstShown(server.urls[0]!, seeded.tokens[0]!);
    const before = await pagesAnswered(server);
    const result = await load({ url: server.urls, requests: mixedRequests(seeded, shown), warmEach: lcm(cycle, seeded.tokens.length), atRate: MIXED_GOAL.rps });
    const after = await pagesAnswered(server);
    if (before && after) {
      const [drawn, kept, shell] = (["drawn", "kept", "over_budget"] as const).map((how) => after[how] - before[how]);
      const all = drawn! + kept! + shell!;
      console.log(`  pages (warm-up and passes): ${drawn} drawn, ${kept} visitors' pages kept, ${shell} static shell over the budget (${all ? Math.round((100 * (drawn! + kept!)) / all) : 0} % with the server's drawing)`);
    }
    return summarise(
      `Mixed event workload (listings, wrong flags, correct flags (1 in 150 requests), leaderboard pages, own profile and team, page loads (5 in 150); ${sockets.count} websockets; ${sockets.received()} events delivered)`,
      result,
      MIXED_GOAL,
    );
  } finally {
    sockets.close();
  }
}

export interface SoakMinute {
  minute: number;
  requestsPerSecond: number;
  p99: number;
  errors: number;
  /** Requests sent behind the schedule (every connection busy). */
  late: number;
  rssMiB: number;
}

export interface SoakResult {
  minutes: SoakMinute[];
  /** Memory and p99 of the last minute against the first (after the first minute's warm-up). */
  flat: boolean;
  verdict: string;
}

/** BENCH_SOAK=1: the mixed workload for `minutes` minutes, measured minute by minute. */
export async function benchSoak(server: Server, seeded: Seeded, minutes = 10): Promise<SoakResult> {
  const sockets = await openSockets(server, seeded);
  const rows: SoakMinute[] = [];
  try {
    const requests = mixedRequests(seeded, await firstShown(server.urls[0]!, seeded.tokens[0]!));
    for (let minute = 1; minute <= minutes; minute++) {
      const memory = watchMemory(server.pids);
      // At the goal's rate, as a running event would be: a queue that grows, or a leak, shows as
      // a p99 or a memory that climbs minute by minute (at saturation the machine's own slow
      // spells would hide either).
      const result = await run({ url: server.urls, requests }, 60, MIXED_GOAL.rps);
      rows.push({
        minute,
        requestsPerSecond: Math.round(result.requests.average),
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
        late: result.late ?? 0,
        rssMiB: await memory.stop(),
      });
      console.log(`  minute ${minute}: ${rows.at(-1)!.requestsPerSecond} req/s, p99 ${rows.at(-1)!.p99} ms, RSS ${rows.at(-1)!.rssMiB} MiB`);
    }
  } finally {
    sockets.close();
  }
  // The first minute warms caches and the JIT; compare the last minutes against the second.
  const base = rows[Math.min(1, rows.length - 1)]!;
  const last = rows.at(-1)!;
  const rssGrowth = last.rssMiB - base.rssMiB;
  const latencyRatio = last.p99 / Math.max(base.p99, 1);
  const errors = rows.reduce((sum, r) => sum + r.errors, 0);
  // Every minute after the first answers the offered rate (nothing fell behind).
  const slowest = Math.min(...rows.slice(1).map((r) => r.requestsPerSecond));
  const late = rows.reduce((sum, r) => sum + r.late, 0);
  const flat = rssGrowth <= Math.max(20, base.rssMiB * 0.1) && latencyRatio <= 1.5 && errors === 0 && slowest >= MIXED_GOAL.rps * 0.98 && late === 0;
  const peak = Math.max(...(await Promise.all(server.pids.map((pid) => memoryMiB(pid, "VmHWM")))));
  return {
    minutes: rows,
    flat,
    verdict: `RSS ${base.rssMiB} -> ${last.rssMiB} MiB (peak ${peak} MiB), p99 ${base.p99} -> ${last.p99} ms, at least ${slowest} req/s a minute, ${errors} errors, ${late} requests sent late`,
  };
}
