import { freePort } from "@flagship/db";
import { COPIES, type Measurement, type Server, startCopies } from "../harness.ts";
import type { Seeded } from "../seed.ts";
import { benchCategoryListing, benchIncorrectSubmission } from "./challenges.ts";

/** The most metrics may add to a request's server CPU time on the hottest paths. */
export const METRICS_GOAL = 1.03;
/** How often the scraper reads every copy's /metrics, as the compose stack's Prometheus does. */
const SCRAPE_INTERVAL_MS = 5000;
const ROUNDS = 2;

export interface MetricsCostRow {
  name: string;
  /** The rounds' figures, one Measurement per round, with metrics off and on. */
  without: Measurement[];
  with: Measurement[];
  /** The server copies' CPU time per answered request with metrics over that without, over all rounds. */
  costRatio: number;
  /** Scrapes answered while the copies with metrics were measured, and those that failed. */
  scrapes: number;
  failedScrapes: number;
  met: boolean;
}

/** The hottest paths: every player's page load lists the categories, and wrong flags are most of the writes. */
const HOT_PATHS: [key: string, run: (server: Server, seeded: Seeded) => Promise<Measurement>][] = [
  ["listing", benchCategoryListing],
  ["wrong", benchIncorrectSubmission],
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

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);

/**
 * The cost of metrics on the hottest paths (the category listing and a wrong flag): the same
 * server copies twice, without METRICS_PORT (no per-request work for metrics at all) and with it
 * (each copy its own metrics port, and a scraper reading every copy's /metrics every 5 s while
 * they are measured, as Prometheus would). Measured in pairs, one right after the other, taking
 * turns at going first, over two rounds (as the 10x comparison is: CPU time per request drifts
 * between runs minutes apart on a shared machine). The goal is on the server copies' CPU time per
 * answered request: at most 3% more with metrics.
 */
export async function benchMetricsCost(url: string, seeded: Seeded, log: (line: string) => void): Promise<MetricsCostRow[]> {
  const metricsPorts: number[] = [];
  for (let copy = 0; copy < COPIES; copy++) metricsPorts.push(await freePort());
  const without = await startCopies(url);
  let withMetrics: Server | undefined;
  try {
    withMetrics = await startCopies(url, COPIES, (copy) => ({ METRICS_PORT: String(metricsPorts[copy]), METRICS_HOST: "127.0.0.1" }));
    const scraped = metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`);
    const runs = HOT_PATHS;
    const results = new Map(runs.map(([key]) => [key, { without: [] as Measurement[], with: [] as Measurement[], scrapes: 0, failedScrapes: 0 }]));
    let turn = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [key, run] of runs) {
        const result = results.get(key)!;
        const measureWithout = async () => {
          log(`Measuring ${key} without metrics (round ${round})...`);
          result.without.push(await run(without, seeded));
        };
        const measureWith = async () => {
          log(`Measuring ${key} with metrics, scraped every ${SCRAPE_INTERVAL_MS / 1000} s (round ${round})...`);
          const scraping = scraper(scraped, log);
          try {
            result.with.push(await run(withMetrics!, seeded));
          } finally {
            const { scrapes, failed } = await scraping.stop();
            result.scrapes += scrapes;
            result.failedScrapes += failed;
          }
        };
        if (turn++ % 2 === 0) {
          await measureWithout();
          await measureWith();
        } else {
          await measureWith();
          await measureWithout();
        }
      }
    }
    return runs.map(([key]) => {
      const result = results.get(key)!;
      const cpuWithout = mean(result.without.map((m) => m.cpuMsPerRequest));
      const cpuWith = mean(result.with.map((m) => m.cpuMsPerRequest));
      // Without CPU figures (a machine without /proc), the rate stands in for the cost.
      const costRatio = cpuWithout > 0 && cpuWith > 0 ? cpuWith / cpuWithout : mean(result.without.map((m) => m.requestsPerSecond)) / Math.max(mean(result.with.map((m) => m.requestsPerSecond)), 1);
      const failures = [...result.without, ...result.with].reduce((n, m) => n + m.errors + m.non2xx, 0);
      return {
        name: result.with[0]!.name,
        ...result,
        costRatio,
        met: costRatio <= METRICS_GOAL && failures === 0 && result.scrapes > 0 && result.failedScrapes === 0,
      };
    });
  } finally {
    await Promise.all([without.stop(), withMetrics?.stop()]);
  }
}

/** The "Cost of metrics" section of BENCHMARKS.md. */
export function metricsCostSection(rows: MetricsCostRow[]): string[] {
  const figure = (ms: Measurement[], pick: (m: Measurement) => number, unit = "") => ms.map((m) => `${pick(m)}${unit}`).join(" / ");
  return [
    "## Cost of metrics",
    "",
    `The hottest paths on the same ${COPIES > 1 ? `${COPIES} server copies` : "server"} without \`METRICS_PORT\` (no work per request for metrics) and with it (each copy's /metrics on a port of its own, read every ${SCRAPE_INTERVAL_MS / 1000} s by a scraper during the passes, as Prometheus would). Each pair is measured one right after the other, taking turns at going first, over ${ROUNDS} rounds (figures per round, separated by /); the cost ratio is the server CPU time per request with metrics over that without, over both rounds.`,
    "",
    "| scenario | without: requests/s | with: requests/s | without: CPU/request | with: CPU/request | scrapes (failed) | cost ratio | goal | met |",
    "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${figure(r.without, (m) => m.requestsPerSecond)} | ${figure(r.with, (m) => m.requestsPerSecond)} | ${figure(r.without, (m) => m.cpuMsPerRequest, " ms")} | ${figure(r.with, (m) => m.cpuMsPerRequest, " ms")} | ${r.scrapes} (${r.failedScrapes}) | ${r.costRatio.toFixed(3)} | <= ${METRICS_GOAL.toFixed(2)} | ${r.met ? "yes" : "no"} |`,
    ),
    "",
  ];
}
