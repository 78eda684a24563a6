import { freePort } from "@flagship/db";
import { COPIES, serverCpuMs, GENERATOR, type LoadOptions, PASS_SECONDS, run, type Server, startCopies, WARMUP_SECONDS, warmEach } from "../harness.ts";
import type { Seeded } from "../seed.ts";
import { categoryListingLoad, incorrectSubmissionLoad } from "./challenges.ts";

/** The most metrics may add to a request's server CPU time on the hottest paths. */
export const METRICS_GOAL = 1.03;
/** How often the scraper reads every copy's /metrics, as the compose stack's Prometheus does. */
const SCRAPE_INTERVAL_MS = 5000;
/** Passes per path, each PASS_SECONDS long, with both configurations under load at once. */
const PASSES = Number(process.env.BENCH_METRICS_PASSES ?? 8);

/** One configuration's figures over a path's passes. */
export interface MetricsSide {
  requestsPerSecond: number;
  /** The copies' CPU time per answered request over all passes, in ms. */
  cpuMsPerRequest: number;
  failed: number;
}

export interface MetricsCostRow {
  name: string;
  without: MetricsSide;
  with: MetricsSide;
  /** Each pass's ratio: CPU time per request with metrics over that without, in the same seconds. */
  passRatios: number[];
  /** CPU time per request with metrics over that without, over all passes. */
  costRatio: number;
  /** Scrapes answered while the path was measured, and those that failed. */
  scrapes: number;
  failedScrapes: number;
  met: boolean;
}

/** The hottest paths: every player's page load lists the categories, and wrong flags are most of the writes. */
const HOT_PATHS: [key: string, name: (seeded: Seeded) => string, requests: (seeded: Seeded) => Pick<LoadOptions, "requests">][] = [
  ["listing", (seeded) => `Category listing as a player (${seeded.challenges.length} challenges, ${seeded.tokens.length} players' tokens)`, categoryListingLoad],
  ["wrong", (seeded) => `Incorrect flag submission (${seeded.tokens.length} players' tokens)`, incorrectSubmissionLoad],
];

/** Reads every URL's /metrics every 5 s until stopped, counting the answers; a failed scrape is logged. */
function scraper(urls: string[], log: (line: string) => void): { stop(): Promise<{ scrapes: number; failed: number }> } {
  let scrapes = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const scrapeAll = () => {
    for (const url of urls) {
      const done: Promise<void> = fetch(url)
        .then(async (response) => {
          await response.text();
          if (response.ok) scrapes++;
          else {
            failed++;
            log(`A scrape of ${url} answered ${response.status}`);
          }
        })
        .catch((error: unknown) => {
          failed++;
          log(`A scrape of ${url} failed: ${(error as Error).message}${(error as Error).cause ? ` (${String((error as Error).cause)})` : ""}`);
        })
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    }
  };
  scrapeAll();
  const timer = setInterval(scrapeAll, SCRAPE_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { scrapes, failed };
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The cost of metrics on the hottest paths (the category listing and a wrong flag): server copies
 * without METRICS_PORT (no per-request work for metrics at all) and as many with it (each its own
 * metrics port, read every 5 s by a scraper, as Prometheus would), all running at once on the same
 * database, the load generator dealing its connections out to all of them evenly, as fast as they
 * answer. Measured side by side rather than one after the other: whatever else the machine does in
 * a pass (and the drift of CPU time per request between runs minutes apart, 10-30% here) weighs on
 * both alike, so each pass compares them in the same seconds. The goal is on the copies' CPU time
 * per answered request: at most 3% more with metrics, over all passes.
 */
export async function benchMetricsCost(url: string, seeded: Seeded, log: (line: string) => void): Promise<MetricsCostRow[]> {
  if (GENERATOR !== "wrk") throw new Error("The cost of metrics is measured with wrk (each copy's share of the load); install wrk");
  const metricsPorts: number[] = [];
  for (let copy = 0; copy < COPIES; copy++) metricsPorts.push(await freePort());
  const without = await startCopies(url);
  let withMetrics: Server | undefined;
  try {
    withMetrics = await startCopies(url, COPIES, (copy) => ({ METRICS_PORT: String(metricsPorts[copy]), METRICS_HOST: "127.0.0.1" }));
    const both = withMetrics;
    const scraped = metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`);
    const rows: MetricsCostRow[] = [];
    for (const [key, name, requests] of HOT_PATHS) {
      // Alternating targets: one copy without, one with, and so on, so each configuration is sent
      // every other request and half the connections.
      const targets = without.urls.flatMap((u, i) => [u, both.urls[i]!]);
      const options: LoadOptions = { ...requests(seeded), url: targets };
      log(`Measuring ${key} without and with metrics side by side (${PASSES} passes of ${PASS_SECONDS} s)...`);
      const scraping = scraper(scraped, log);
      const sides = { without: { cpu: 0, requests: 0, failed: 0 }, with: { cpu: 0, requests: 0, failed: 0 } };
      const passRatios: number[] = [];
      try {
        await warmEach(options, seeded.tokens.length);
        await run(options, WARMUP_SECONDS);
        for (let pass = 0; pass < PASSES; pass++) {
          const before = await Promise.all([serverCpuMs(without), serverCpuMs(both)]);
          const result = await run(options, PASS_SECONDS);
          const after = await Promise.all([serverCpuMs(without), serverCpuMs(both)]);
          const answered = (server: Server) => result.byTarget!.filter((t) => server.urls.includes(t.url));
          const counts = [without, both].map((server) => answered(server).reduce((n, t) => n + t.requests, 0));
          const failed = [without, both].map((server) => answered(server).reduce((n, t) => n + t.failed, 0));
          const cpu = [after[0] - before[0], after[1] - before[1]];
          sides.without.cpu += cpu[0]!;
          sides.without.requests += counts[0]!;
          sides.without.failed += failed[0]!;
          sides.with.cpu += cpu[1]!;
          sides.with.requests += counts[1]!;
          sides.with.failed += failed[1]!;
          passRatios.push(cpu[1]! / Math.max(counts[1]!, 1) / (cpu[0]! / Math.max(counts[0]!, 1)));
        }
      } finally {
        const { scrapes, failed } = await scraping.stop();
        const side = (s: { cpu: number; requests: number; failed: number }): MetricsSide => ({
          requestsPerSecond: Math.round(s.requests / (PASSES * PASS_SECONDS)),
          cpuMsPerRequest: s.requests > 0 ? s.cpu / s.requests : 0,
          failed: s.failed,
        });
        const costRatio = side(sides.with).cpuMsPerRequest / Math.max(side(sides.without).cpuMsPerRequest, 1e-9);
        rows.push({
          name: name(seeded),
          without: side(sides.without),
          with: side(sides.with),
          passRatios,
          costRatio,
          scrapes,
          failedScrapes: failed,
          met: costRatio <= METRICS_GOAL && sides.without.failed + sides.with.failed === 0 && scrapes > 0 && failed === 0,
        });
      }
    }
    return rows;
  } finally {
    await Promise.all([without.stop(), withMetrics?.stop()]);
  }
}

/** The "Cost of metrics" section of BENCHMARKS.md. */
export function metricsCostSection(rows: MetricsCostRow[]): string[] {
  const ratios = (r: MetricsCostRow) => r.passRatios.map((x) => x.toFixed(2)).join(", ");
  return [
    "## Cost of metrics",
    "",
    `The hottest paths on ${COPIES > 1 ? `${COPIES} server copies` : "a server"} without \`METRICS_PORT\` (no work per request for metrics) and ${COPIES > 1 ? `${COPIES} copies` : "one"} with it (each copy's /metrics on a port of its own, read every ${SCRAPE_INTERVAL_MS / 1000} s by a scraper, as Prometheus would), all running at once on the same database, wrk dealing its connections out to every copy evenly, as fast as they answer: side by side, so whatever else the machine does weighs on both alike. ${PASSES} passes of ${PASS_SECONDS} s per path; the cost ratio is the copies' CPU time per answered request with metrics over that without, over all passes (each pass's own ratio listed, and their median).`,
    "",
    "| scenario | without: requests/s | with: requests/s | without: CPU/request | with: CPU/request | passes' ratios (median) | scrapes (failed) | cost ratio | goal | met |",
    "|---|---:|---:|---:|---:|---|---:|---:|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.without.requestsPerSecond} | ${r.with.requestsPerSecond} | ${r.without.cpuMsPerRequest.toFixed(3)} ms | ${r.with.cpuMsPerRequest.toFixed(3)} ms | ${ratios(r)} (${median(r.passRatios).toFixed(3)}) | ${r.scrapes} (${r.failedScrapes}) | ${r.costRatio.toFixed(3)} | <= ${METRICS_GOAL.toFixed(2)} | ${r.met ? "yes" : "no"} |`,
    ),
    "",
  ];
}
