import { freePort } from "@flagship/db";
import { COPIES, cpuMs, serverCpuMs, GENERATOR, type LoadOptions, mergedPercentile, PASS_SECONDS, run, type Server, startCopies, WARMUP_SECONDS, warmEach, watchMemory } from "../harness.ts";
import type { Seeded } from "../seed.ts";
import { lcm, MIX, MIXED_GOAL, mixedRequests, openSockets, pagesAnswered } from "./mixed.ts";
import { firstShown, pageHeaders, playerPages, VISITOR_PAGES } from "./pages.ts";

/** Saturated passes, each PASS_SECONDS long, with both configurations under load at once. */
const PASSES = Number(process.env.BENCH_PAGES_COST_PASSES ?? 16);
/** Passes at the mixed workload's goal rate (offered to both sides together). */
const PACED_PASSES = Number(process.env.BENCH_PAGES_COST_PACED ?? 3);
/**
 * The rates of the paced passes (offered to both sides together): the mixed workload's goal, and a
 * third of it, where the rendering copies have time left to draw.
 */
const PACED_RATES = [MIXED_GOAL.rps, MIXED_GOAL.rps / 3];
/** The hot API paths with page loads drawn may answer at most this much less than with none drawn. */
export const PAGES_COST_GOAL = 0.95;

/** One side's figures over its passes. */
export interface PagesSide {
  requestsPerSecond: number;
  /** The copies' CPU time per answered request, ms. */
  cpuMsPerRequest: number;
  p99: number;
  failed: number;
  /** Pages drawn by the server (the rendering-on side), and those sent as the static shell. */
  drawn: number;
  shell: number;
}

export interface PagesCostRow {
  saturated: { off: PagesSide; on: PagesSide; passRatios: number[] };
  paced: { offered: number; off: PagesSide; on: PagesSide; cpuMsPerDrawnPage: number | null }[];
  rssMiB: { off: number; on: number };
  /** Requests answered with rendering on over those with it off, saturated, all passes. */
  throughputRatio: number;
  /** CPU per request on over off, saturated. */
  costRatio: number;
  met: boolean;
}

interface Tally {
  cpu: number;
  requests: number;
  failed: number;
  seconds: number;
  quantiles: { requests: number; quantiles: number[] }[];
  drawn: number;
  shell: number;
}

const tally = (): Tally => ({ cpu: 0, requests: 0, failed: 0, seconds: 0, quantiles: [], drawn: 0, shell: 0 });

/**
 * What drawing pages costs the mixed workload (with its page loads: 5 in 150 requests), measured
 * side by side: copies with server rendering off (every page the static shell, as before pages were
 * drawn) and as many with it on (the default), all at once on the same database, wrk dealing its
 * connections out to all of them evenly, each side with its own Redis and half the websockets.
 * Side by side, not one run after the other: runs minutes apart move by a tenth or more on this
 * machine, more than the difference measured. Each side answers as fast as it can on its share of
 * the connections, so the requests each answers in the same seconds are its throughput.
 */
export async function benchPagesCost(url: string, seeded: Seeded, log: (line: string) => void): Promise<PagesCostRow> {
  if (GENERATOR !== "wrk") throw new Error("The cost of drawing pages is measured with wrk (each copy's share of the load); install wrk");
  const ports: number[] = [];
  for (let copy = 0; copy < 2 * COPIES; copy++) ports.push(await freePort());
  // Both sides serve /metrics (the pages each drew), so both pay its small cost alike.
  // BENCH_PAGES_COST_AA=1: both sides with rendering off, to check the two sides measure alike.
  const onSetting = process.env.BENCH_PAGES_COST_AA === "1" ? "off" : "on";
  const off = await startCopies(url, COPIES, (copy) => ({ SERVER_RENDERING: "off", METRICS_PORT: String(ports[copy]) }));
  let on: Server | undefined;
  let sockets: Awaited<ReturnType<typeof openSockets>> | undefined;
  try {
    // BENCH_PAGES_COST_ON_ENV: settings of the rendering side's own, e.g. "SERVER_RENDERING_BUDGET_MS=0".
    const onEnv = Object.fromEntries((process.env.BENCH_PAGES_COST_ON_ENV ?? "").split(/\s+/).filter(Boolean).map((pair) => pair.split("=", 2) as [string, string]));
    on = await startCopies(url, COPIES, (copy) => ({ SERVER_RENDERING: onSetting, ...onEnv, METRICS_PORT: String(ports[COPIES + copy]) }));
    const sides = { off, on };
    const targets = off.urls.flatMap((u, i) => [u, on!.urls[i]!]);
    sockets = await openSockets({ urls: targets }, seeded);
    const shown = await firstShown(on.urls[0]!, seeded.tokens[0]!);
    await asAfterTheFirstMinute(targets, seeded, shown);
    // Dealt as if at random: in turn, with a cycle of 150 kinds, the sides would get different kinds.
    const options: LoadOptions = { url: targets, requests: mixedRequests(seeded, shown), dealing: "mixed" };
    const cycle = MIX.reduce((sum, [, weight]) => sum + weight, 0);
    log(`Measuring the mixed workload with rendering off and on side by side (${PASSES} passes of ${PASS_SECONDS} s, then ${PACED_PASSES} at each of ${PACED_RATES.join(" and ")} requests a second)...`);
    await warmEach(options, lcm(cycle, seeded.tokens.length));
    await run(options, WARMUP_SECONDS);
    const memory = { off: watchMemory(off.pids), on: watchMemory(on.pids) };
    const measure = async (into: { off: Tally; on: Tally }, rate?: number) => {
      const before = { off: await serverCpuMs(off), on: await serverCpuMs(on!), pages: await pagesAnswered(on!) };
      const byCopy = process.env.BENCH_PAGES_COST_COPIES === "1";
      const cpuCopies = byCopy ? await Promise.all([...off.pids, ...on!.pids].map(cpuMs)) : [];
      const result = await run(options, PASS_SECONDS, rate);
      if (byCopy) {
        const cpuAfter = await Promise.all([...off.pids, ...on!.pids].map(cpuMs));
        const urls = [...off.urls, ...on!.urls];
        log(`    by copy: ${urls.map((u, i) => `${result.byTarget!.find((t) => t.url === u)!.requests} requests, ${cpuAfter[i]! - cpuCopies[i]!} ms CPU`).join("; ")}`);
      }
      const after = { off: await serverCpuMs(off), on: await serverCpuMs(on!), pages: await pagesAnswered(on!) };
      for (const side of ["off", "on"] as const) {
        const mine = result.byTarget!.filter((t) => sides[side].urls.includes(t.url));
        const t = into[side];
        t.cpu += after[side] - before[side];
        t.requests += mine.reduce((n, target) => n + target.requests, 0);
        t.failed += mine.reduce((n, target) => n + target.failed, 0);
        t.seconds += PASS_SECONDS;
        t.quantiles.push(...mine.map((target) => ({ requests: target.requests, quantiles: target.quantiles })));
      }
      if (before.pages && after.pages) {
        into.on.drawn += after.pages.drawn + after.pages.kept - before.pages.drawn - before.pages.kept;
        into.on.shell += after.pages.over_budget - before.pages.over_budget;
      }
      return result;
    };
    const saturated = { off: tally(), on: tally() };
    const passRatios: number[] = [];
    for (let pass = 0; pass < PASSES; pass++) {
      const requestsBefore = { off: saturated.off.requests, on: saturated.on.requests };
      await measure(saturated);
      const ratio = (saturated.on.requests - requestsBefore.on) / Math.max(1, saturated.off.requests - requestsBefore.off);
      passRatios.push(ratio);
      log(`  pass ${pass + 1}: rendering on answered ${ratio.toFixed(3)}x the requests of rendering off`);
    }
    const paced = PACED_RATES.map((rate) => ({ rate, off: tally(), on: tally() }));
    for (const at of paced) for (let pass = 0; pass < PACED_PASSES; pass++) await measure(at, at.rate);
    const rssMiB = { off: await memory.off.stop(), on: await memory.on.stop() };
    const side = (t: Tally): PagesSide => ({
      requestsPerSecond: Math.round(t.requests / Math.max(1, t.seconds)),
      cpuMsPerRequest: t.requests > 0 ? Math.round((1000 * t.cpu) / t.requests) / 1000 : 0,
      p99: t.quantiles.length > 0 ? mergedPercentile(t.quantiles, 99) : 0,
      failed: t.failed,
      drawn: t.drawn,
      shell: t.shell,
    });
    const throughputRatio = saturated.on.requests / Math.max(1, saturated.off.requests);
    const costRatio = saturated.on.cpu / Math.max(1, saturated.on.requests) / (saturated.off.cpu / Math.max(1, saturated.off.requests));
    // The off side's CPU per request applied to the on side's requests: what those requests cost
    // with no page drawn; the rest is the drawing.
    const perDrawn = (at: (typeof paced)[number]) => {
      if (at.on.drawn === 0) return null;
      const extra = at.on.cpu - (at.off.cpu / Math.max(1, at.off.requests)) * at.on.requests;
      return Math.round((10 * extra) / at.on.drawn) / 10;
    };
    const failed = saturated.off.failed + saturated.on.failed + paced.reduce((n, at) => n + at.off.failed + at.on.failed, 0);
    return {
      saturated: { off: side(saturated.off), on: side(saturated.on), passRatios },
      paced: paced.map((at) => ({ offered: at.rate, off: side(at.off), on: side(at.on), cpuMsPerDrawnPage: perDrawn(at) })),
      rssMiB,
      throughputRatio,
      costRatio,
      met: throughputRatio >= PAGES_COST_GOAL && failed === 0,
    };
  } finally {
    sockets?.close();
    await Promise.all([off.stop(), on?.stop()]);
  }
}

/**
 * Brings every copy, on either side, to where an event's copies are after its first minute, so the
 * passes compare the two sides' steady state, not what each first visit leaves behind:
 *
 * - Each has been asked for the leaderboard's graph. From then on a copy keeps the players' board
 *   up to date on every solve (leaderboard/board.ts), which the workload's own calls (the teams'
 *   board) never ask for. A player's visit to the leaderboard asks for it whether the server draws
 *   the page or the browser does (it then calls for the graph itself), but the workload's page
 *   loads on the side that never draws are the static shell alone, with none of the calls the
 *   browser would make next: without this, the rendering side alone kept that board (measured:
 *   0.937x the requests over 20 passes, against 0.978x with it).
 * - Each has been asked for each of the workload's pages, by a player and by a visitor: a rendering
 *   copy's first draw of a page compiles that part of the renderer (hundreds of milliseconds) and
 *   would otherwise land in the first passes.
 */
async function asAfterTheFirstMinute(targets: string[], seeded: Seeded, shown: { category: number; challenge: number }): Promise<void> {
  const token = seeded.tokens[0]!;
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(url, { headers, redirect: "manual" });
    await res.arrayBuffer();
    if (res.status >= 400) throw new Error(`GET ${url} answered ${res.status}`);
  };
  for (const target of targets) {
    await get(`${target}/api/v2/leaderboard/graph/`, { authorization: `Token ${token}` });
    for (const page of playerPages(shown)) await get(`${target}${page}`, pageHeaders(token));
    for (const page of VISITOR_PAGES) await get(`${target}${page}`, pageHeaders());
  }
}

/** The section of BENCHMARKS.md for it. */
export function pagesCostSection(row: PagesCostRow): string[] {
  const cells = (s: PagesSide) => `${s.requestsPerSecond} | ${s.cpuMsPerRequest} ms | ${s.p99} ms | ${s.drawn} | ${s.shell} | ${s.failed}`;
  return [
    "## What drawing pages costs the hot API paths (side by side)",
    "",
    `The mixed workload with its page loads (5 in 150 requests) on ${COPIES} copies with server rendering off (every page the static shell, as before pages were drawn) and ${COPIES} with it on (the default budget), all at once on the same database, wrk dealing its connections out to every copy evenly: ${PASSES} saturated passes of ${PASS_SECONDS} s, then ${PACED_PASSES} at each of ${PACED_RATES.join(" and ")} requests a second offered to both sides together. Side by side, because runs minutes apart move by a tenth or more on this machine, more than the difference measured. Before the passes, every copy on either side is asked once for the leaderboard's graph and for each of the workload's pages, as an event's copies are in its first minute: a copy asked for the graph keeps the players' board up to date from then on, which a browser's visit to the leaderboard asks for whether the server draws the page or not, and a rendering copy's first draw of a page compiles that part of the renderer. CPU is the copies' time per answered request; pages are those the rendering copies drew (or served again to visitors) and those they sent as the static shell, their budget spent.`,
    "",
    "| passes | rendering | requests/s | CPU/request | p99 | pages drawn | static shell | failed |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    `| saturated | off | ${cells(row.saturated.off)} |`,
    `| saturated | on | ${cells(row.saturated.on)} |`,
    ...row.paced.flatMap((at) => [`| at ${at.offered} offered | off | ${cells(at.off)} |`, `| at ${at.offered} offered | on | ${cells(at.on)} |`]),
    "",
    `Saturated, rendering on answered ${row.throughputRatio.toFixed(3)}x the requests of rendering off (each pass: ${row.saturated.passRatios.map((r) => r.toFixed(3)).join(", ")}), at ${row.costRatio.toFixed(3)}x the CPU per request; goal: at least ${PAGES_COST_GOAL}x, ${row.met ? "met" : "not met"}. Peak RSS of a copy: ${row.rssMiB.off} MiB off, ${row.rssMiB.on} MiB on.${row.paced.map((at) => (at.cpuMsPerDrawnPage === null ? "" : at.cpuMsPerDrawnPage <= 0 ? ` At ${at.offered} offered, the rendering copies spent no more CPU per request than the off side, drawing ${at.on.drawn} pages (their draws lost in the runs' spread).` : ` At ${at.offered} offered, the rendering copies' CPU beyond the off side's per request came to ${at.cpuMsPerDrawnPage} ms per page drawn (an upper bound on a draw's cost: it holds whatever else the rendering copies spent more).`)).join("")}`,
    "",
  ];
}
