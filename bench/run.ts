// `npm run bench`: seeds a fresh embedded PostgreSQL (durable defaults) through the domain
// functions, starts the server in production mode with throttles off, measures each scenario
// with autocannon (a warm-up, then three passes: medians reported) while sampling the server's
// memory, and writes BENCHMARKS.md.
//
// Opt-in: BENCH_SOAK=1 adds the 10-minute soak of the mixed workload; BENCH_10X=1 adds the
// 10x seed (10000 teams, 50000 solves) and compares per-request costs, measuring each per-request
// scenario on both events in turn (with BENCH_ONLY, those it names). BENCH_SECONDS sets the
// length of a measured pass (10). BENCH_PROFILE=1 loads pg_stat_statements and prints each
// scenario's costliest statements. The cost of metrics (BENCH_ONLY key metrics) measures the
// category listing and a wrong flag on copies without and with METRICS_PORT, scraped every 5 s.
//
// For work on one hot path (not for BENCHMARKS.md): BENCH_ONLY=listing,wrong,... runs only the
// named scenarios (listing, wrong, self, team, board, board-solves, pages, submissions, mixed, burst, fanout, soak,
// stampede, sockets, lighthouse, metrics) and prints their figures without writing BENCHMARKS.md; BENCH_SEED_DIR=folder keeps
// the seeded database there and reuses it on later runs (seeded once, with the solves of earlier
// runs on top); BENCH_CPU_PROF=folder has each server process write a V8 CPU profile there.
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { COPIES, type Database, GENERATOR, memoryMiB, PACED_CONNECTIONS, PASS_SECONDS, PASSES, ROOT, type Measurement, startCopies, startDatabase, WARMUP_SECONDS } from "./harness.ts";
import { SEED, seedOrReuse, type Seeded } from "./seed.ts";
import { serverEnv, serverNodeFlags } from "../scripts/server-flags.mjs";
import { benchChallengeServers, type TierResult } from "./scenarios/challenge-servers.ts";
import { benchColdStart, type StartResult } from "./scenarios/cold-start.ts";
import { benchFanout, type FanoutResult } from "./scenarios/fanout.ts";
import { benchSolveBurst, benchSpreadBurst, type BurstResult } from "./scenarios/burst.ts";
import { benchLeaderboardUnderSolves } from "./scenarios/leaderboard.ts";
import { benchMixed, benchSoak, type SoakResult } from "./scenarios/mixed.ts";
import { benchTenfold, PER_REQUEST, type ScaleRow } from "./scenarios/scale.ts";
import { benchSocketsAtScale, socketsSection } from "./scenarios/sockets.ts";
import { benchStampede, stampedeSection } from "./scenarios/stampede.ts";
import { benchSubmissionsLog } from "./scenarios/submissions.ts";
import { benchPlayerPages, benchVisitorPages } from "./scenarios/pages.ts";
import { benchFirstLoad, firstLoadSection } from "./scenarios/first-load.ts";
import { benchLighthouse, lighthouseSection } from "./scenarios/lighthouse.ts";
import { benchMetricsCost, metricsCostSection, type MetricsCostRow } from "./scenarios/metrics.ts";
import { benchPagesCost, pagesCostSection, type PagesCostRow } from "./scenarios/pages-cost.ts";

const SOAK = process.env.BENCH_SOAK === "1";
const TENFOLD = process.env.BENCH_10X === "1";
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((s) => s.trim())) : null;
const SEED_DIR = process.env.BENCH_SEED_DIR ? path.resolve(process.env.BENCH_SEED_DIR) : undefined;
const SCENARIOS = ["listing", "wrong", "self", "team", "board", "board-solves", "pages", "submissions", "mixed", "burst", "fanout", "soak", "stampede", "sockets", "lighthouse", "metrics", "pages-cost"];

/** The memory allocator the server copies run on (scripts/server-flags.mjs). */
function allocator(): string {
  const preload = serverEnv().LD_PRELOAD;
  return preload ? `on jemalloc (${preload})` : "on glibc's allocator (no jemalloc on this machine)";
}

/** Whether a scenario runs: all of them (soak only with BENCH_SOAK=1), or those BENCH_ONLY names. */
function runs(key: string): boolean {
  if (ONLY) return ONLY.has(key);
  return key !== "soak" || SOAK;
}

interface Report {
  seed: Seeded["counts"] | null;
  measurements: Measurement[];
  fanout: FanoutResult | null;
  burst: BurstResult[];
  soak: SoakResult | null;
  tenfold: { rows: ScaleRow[]; seed: Seeded["counts"] } | null;
  tier: TierResult[] | string;
  starts: StartResult[];
  peakRssMiB: number;
  stampede: string[];
  sockets: string[];
  lighthouse: string | null;
  metricsCost: MetricsCostRow[];
  pagesCost: PagesCostRow | null;
}

async function main(): Promise<void> {
  const started = Date.now();
  if (ONLY) for (const key of ONLY) if (!SCENARIOS.includes(key)) throw new Error(`BENCH_ONLY: no scenario ${key} (${SCENARIOS.join(", ")})`);
  const database = await startDatabase(SEED_DIR);
  const report: Report = { seed: null, measurements: [], fanout: null, burst: [], soak: null, tenfold: null, tier: "not measured", starts: [], peakRssMiB: 0, stampede: [], sockets: [], lighthouse: null, metricsCost: [], pagesCost: null };
  try {
    // The stampede and the socket scenario seed their own players: BENCH_ONLY=stampede,sockets needs neither the event nor its copies.
    if (SCENARIOS.some((key) => key !== "stampede" && key !== "sockets" && runs(key))) await measureSeeded(database, report);
    if (runs("stampede")) {
      console.log("Measuring the event-start stampede...");
      report.stampede = stampedeSection(await benchStampede(database.url));
    }
    if (runs("sockets")) {
      console.log("Measuring websockets at event scale...");
      report.sockets = socketsSection(await benchSocketsAtScale(database.url, database.db));
    }
  } finally {
    await database.stop();
  }
  if (ONLY) {
    if (report.metricsCost.length > 0) for (const line of metricsCostSection(report.metricsCost)) console.log(line);
    if (report.pagesCost) for (const line of pagesCostSection(report.pagesCost)) console.log(line);
    for (const line of report.stampede) console.log(line);
    for (const line of report.sockets) console.log(line);
    if (report.lighthouse) console.log(report.lighthouse);
  } else {
    await writeReport(report, Math.round((Date.now() - started) / 60_000));
  }
  printSummary(report);
}

/** Every scenario that plays the seeded event, with the report's figures filled in as they come. */
async function measureSeeded(database: Database, report: Report): Promise<void> {
  const game = await seedOrReuse(database.url, SEED, SEED_DIR);
  report.seed = game.counts;
  console.log(`Seeded in ${game.counts.seconds} s`);
  const server = await startCopies(database.url);
  try {
    for (const [key, run] of PER_REQUEST) {
      if (!runs(key)) continue;
      console.log(`Measuring ${key}...`);
      report.measurements.push(await run(server, game));
    }
    if (runs("board-solves")) {
      console.log("Measuring the leaderboard while solves happen...");
      report.measurements.push(await benchLeaderboardUnderSolves(server, game));
    }
    if (runs("pages")) {
      console.log("Measuring pages drawn on the server...");
      report.measurements.push(await benchVisitorPages(server));
      report.measurements.push(await benchPlayerPages(server, game));
    }
    if (runs("mixed")) {
      console.log("Measuring the mixed workload...");
      report.measurements.push(await benchMixed(server, game));
    }
    if (runs("burst")) {
      console.log("Measuring the correct-solve burst...");
      report.burst.push(await benchSolveBurst(server, game, database.db));
      report.burst.push(await benchSpreadBurst(server, game, database.db));
    }
    if (runs("fanout")) {
      console.log("Measuring websocket fan-out...");
      report.fanout = await benchFanout(server, database.db);
    }
    // Last of the seeded event's scenarios: it adds 100,000 wrong flags the others should not see.
    if (runs("submissions")) {
      console.log("Measuring the staff submissions log...");
      report.measurements.push(await benchSubmissionsLog(server, game, database.db));
    }
    if (runs("soak")) {
      console.log("Soaking the mixed workload for 10 minutes...");
      report.soak = await benchSoak(server, game);
    }
    if (runs("lighthouse")) {
      console.log("Running Lighthouse (mobile) on the player routes...");
      report.lighthouse = lighthouseSection(await benchLighthouse(server.baseUrl, game), os.loadavg());
    }
    report.peakRssMiB = Math.max(...(await Promise.all(server.pids.map((pid) => memoryMiB(pid, "VmHWM")))));
  } finally {
    await server.stop();
  }
  // Copies of its own, with and without metrics, once the shared copies are gone.
  if (runs("metrics")) {
    console.log("Measuring the cost of metrics on the hottest paths...");
    report.metricsCost = await benchMetricsCost(database.url, game, console.log);
  }
  if (runs("pages-cost")) {
    console.log("Measuring what drawing pages costs the hot API paths...");
    report.pagesCost = await benchPagesCost(database.url, game, console.log);
  }
  const tenfoldKeys = new Set(PER_REQUEST.map(([key]) => key).filter(runs));
  if (TENFOLD && tenfoldKeys.size > 0) {
    // Its own database and a long seed: a failure here still leaves the rest of the report written.
    try {
      report.tenfold = await benchTenfold({ url: database.url, seeded: game }, tenfoldKeys, console.log, SEED_DIR && path.join(SEED_DIR, "10x"));
    } catch (error) {
      console.error("The 10x scenario failed:", error);
    }
  }
  if (!ONLY) {
    console.log("Measuring cold start and memory at rest...");
    report.starts = await benchColdStart(database.url);
    console.log("Measuring challenge servers...");
    report.tier = await benchChallengeServers(database.url, game);
  }
}

/** The one-line verdicts, after the report. */
function printSummary(report: Report): void {
  for (const m of report.measurements) {
    const atGoal = m.atGoal ? `; at ${m.atGoal.offered} offered: ${m.atGoal.requestsPerSecond} req/s, p50 ${m.atGoal.p50} ms, p99 ${m.atGoal.p99} ms, ${m.atGoal.errors} errors, ${m.atGoal.late} late` : "";
    console.log(`${m.met ? "met " : "MISS"}  ${m.name}: ${m.requestsPerSecond} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, ${m.errors + m.non2xx} errors, ${m.rssMiB} MiB, server CPU ${m.cpuMsPerRequest} ms/request${atGoal}`);
  }
  for (const burst of report.burst) console.log(`${burst.met ? "met " : "MISS"}  ${burst.name}: ${burst.value}`);
  if (report.fanout) console.log(`${report.fanout.met ? "met " : "MISS"}  ${report.fanout.name}: ${report.fanout.milliseconds} ms`);
  if (report.soak) console.log(`${report.soak.flat ? "met " : "MISS"}  soak: ${report.soak.verdict}`);
  for (const row of report.tenfold?.rows ?? []) console.log(`${row.met ? "met " : "MISS"}  10x ${row.name}: cost x${row.costRatio.toFixed(2)}`);
  if (report.pagesCost) console.log(`${report.pagesCost.met ? "met " : "MISS"}  drawing pages: rendering on answered x${report.pagesCost.throughputRatio.toFixed(3)} the requests of rendering off, side by side`);
  for (const row of report.metricsCost) console.log(`${row.met ? "met " : "MISS"}  metrics on ${row.name}: cost x${row.costRatio.toFixed(3)}, ${row.failedScrapes} failed scrapes`);
  if (ONLY) return;
  if (typeof report.tier === "string") console.log(`challenge servers ${report.tier}`);
  else for (const t of report.tier) console.log(`${t.met ? "met " : "MISS"}  ${t.name}: ${t.value}`);
}

async function writeReport(report: Report, minutes: number): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const seed = report.seed;
  const lines = [
    "# Benchmarks",
    "",
    `Written by \`npm run bench\`${SOAK ? " with `BENCH_SOAK=1`" : ""}${TENFOLD ? " with `BENCH_10X=1`" : ""} (${minutes} min). A fresh embedded PostgreSQL at its durable`,
    "defaults (fsync, synchronous_commit and full_page_writes on), the server in production mode",
    COPIES > 1
      ? `(\`NODE_ENV=production\`, \`THROTTLE=off\`) as ${COPIES} copies, one per core, each its own process on the same PostgreSQL with Redis carrying events between them (as an operator runs them on one machine), and ${GENERATOR} with 100 connections dealt out to the copies evenly:`
      : `(\`NODE_ENV=production\`, \`THROTTLE=off\`) in its own process, and ${GENERATOR} with 100 connections:`,
    `a warm-up (one request as each player, or in the mixed workload each player's every kind of request, as the first minutes of an event would send; then ${WARMUP_SECONDS} seconds), then ${PASSES} passes of ${PASS_SECONDS} seconds; the table shows the medians of the passes,`,
    "the errors of all passes and the peak resident memory of a server copy while measuring. Load generator,",
    "server and database share the machine.",
    `The server copies run as \`npm start\` runs them: \`${["node", ...serverNodeFlags()].join(" ")}\`, ${allocator()}.`,
    "",
    `Each goal pairs a rate with a p99. The saturated passes measure the rate: 100 connections, each`,
    "sending its next request as soon as the last is answered, so they show the most the server",
    "answers, and their latency is mostly the time a request queues behind the other 99. The p99 is",
    `then measured at the goal's rate, in ${PASSES} more passes that are open-loop: requests are sent at the`,
    "moments of a Poisson process of that rate (independent players arriving at random), whatever the",
    `answers do, on ${PACED_CONNECTIONS} connections so that one is always free, and each is timed from when it was sent.`,
    "A request whose moment came while every connection was busy would go out late, its wait left out of",
    "its latency, so such requests are counted. A goal is met when the saturated rate reaches it and, at",
    "that rate, the rate is answered, the p99 is under the goal, no request went out late (at most one in",
    "a thousand) and nothing failed.",
    "",
    "The event is seeded through the domain functions the server calls (register, create and join",
    "team, create challenge, use hint, submit flag), so score records, first bloods, decay re-scoring",
    "and every cache are what a live event has. One shortcut: every account has the same password,",
    "hashed once with argon2id and handed to register() through its `hashPassword` service, since",
    "hashing thousands of passwords would take minutes of the benchmark's two cores.",
    seed
      ? `Seed: ${seed.users} accounts in ${seed.teams} teams, ${seed.challenges} challenges in 5 categories (one in ten decaying), ${seed.solves} solves, ${seed.hintUses} hint uses; ${seed.seconds} s.`
      : "",
    "",
    `Machine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}. Run ${new Date().toISOString()}.`,
    "",
    "| scenario | saturated: requests/s | passes | p50 | p99 | at the goal's rate: requests/s | p50 | p99 | errors | peak RSS | server CPU per request | goal | met |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ...report.measurements.map(
      (m) =>
        `| ${m.name} | ${m.requestsPerSecond} | ${m.passes.join(" / ")} | ${m.p50} ms | ${m.p99} ms | ${m.atGoal ? `${m.atGoal.requestsPerSecond} | ${m.atGoal.p50} ms | ${m.atGoal.p99} ms${m.atGoal.late ? ` (${m.atGoal.late} sent late)` : ""}` : "- | - | -"} | ${m.errors + m.non2xx + (m.atGoal?.errors ?? 0)} | ${m.rssMiB} MiB | ${m.cpuMsPerRequest} ms | ${m.goal} | ${m.met ? "yes" : "no"} |`,
    ),
    "",
    `Peak resident memory of a server copy over the whole run (VmHWM): ${report.peakRssMiB} MiB.`,
    "",
  ];
  if (report.burst.length > 0 || report.fanout) {
    lines.push("| burst and realtime scenario | result | goal | met |", "|---|---|---|---|");
    for (const burst of report.burst) lines.push(`| ${burst.name} | ${burst.value} | ${burst.goal} | ${burst.met ? "yes" : "no"} |`);
    if (report.fanout) lines.push(`| ${report.fanout.name} | ${report.fanout.milliseconds} ms | ${report.fanout.goal} | ${report.fanout.met ? "yes" : "no"} |`);
    lines.push("");
  }
  if (report.soak) {
    lines.push(
      "Soak (`BENCH_SOAK=1`): the mixed workload for 10 minutes at its goal's rate (open-loop, as above), one minute per row.",
      "",
      "| minute | requests/s | p99 | errors | peak RSS |",
      "|---:|---:|---:|---:|---:|",
      ...report.soak.minutes.map((m) => `| ${m.minute} | ${m.requestsPerSecond} | ${m.p99} ms | ${m.errors} | ${m.rssMiB} MiB |`),
      "",
      `Flat (memory within 10% or 20 MiB and p99 within 1.5x of minute 2, the rate answered every minute after the first, none sent late, no errors): ${report.soak.flat ? "yes" : "no"}; ${report.soak.verdict}.`,
      "",
    );
  } else {
    lines.push("The 10-minute soak of the mixed workload is opt-in: `BENCH_SOAK=1 npm run bench`.", "");
  }
  if (report.tenfold) {
    const s = report.tenfold.seed;
    lines.push(
      `10x seed (\`BENCH_10X=1\`): ${s.users} accounts in ${s.teams} teams, ${s.challenges} challenges, ${s.solves} solves (${s.seconds} s to seed). Per-request cost (the server copies' CPU time per answered request) against the normal seed, each scenario measured on both events in turn (fresh copies of each event's servers, the two taking turns at going first), since CPU time per request moves by about a fifth between runs minutes apart on this machine:`,
      "",
      "| scenario | 1x req/s | 10x req/s | 1x CPU/request | 10x CPU/request | 10x p99 | cost ratio | goal | met |",
      "|---|---:|---:|---:|---:|---:|---:|---|---|",
      ...report.tenfold.rows.map(
        (r) =>
          `| ${r.name} | ${r.base.requestsPerSecond} | ${r.scaled.requestsPerSecond} | ${r.base.cpuMsPerRequest} ms | ${r.scaled.cpuMsPerRequest} ms | ${r.scaled.p99} ms | ${r.costRatio.toFixed(2)} | <= 1.20 | ${r.met ? "yes" : "no"} |`,
      ),
      "",
    );
  } else {
    lines.push("The 10x seed (10000 teams, 50000 solves) is opt-in: `BENCH_10X=1 npm run bench`.", "");
  }
  if (report.metricsCost.length > 0) lines.push(...metricsCostSection(report.metricsCost));
  if (report.pagesCost) lines.push(...pagesCostSection(report.pagesCost));
  if (report.starts.length > 0) {
    lines.push("The compiled server (`apps/server/dist/main.js`), started as its own process:", "", "| start-up | result |", "|---|---|", ...report.starts.map((s) => `| ${s.name} | ${s.value} |`), "");
  }
  lines.push(
    "Challenge servers: a server with Redis and one worker process on this machine's Docker engine,",
    "instances from a busybox image built locally, published on 127.0.0.1; jobs submitted over REST.",
    "",
  );
  const tier = report.tier;
  if (typeof tier === "string") lines.push(`Challenge servers ${tier}.`, "");
  else lines.push("| challenge-server scenario | result | goal | met |", "|---|---|---|---|", ...tier.map((t) => `| ${t.name} | ${t.value} | ${t.goal} | ${t.met ? "yes" : "no"} |`), "");
  lines.push(...report.stampede);
  lines.push(...report.sockets);
  lines.push("", firstLoadSection(benchFirstLoad()), "");
  if (report.lighthouse) lines.push(report.lighthouse, "");
  lines.push(...(await measuredElsewhere(path.join(ROOT, "BENCHMARKS.md"))));
  await writeFile(path.join(ROOT, "BENCHMARKS.md"), lines.join("\n"));
}

/**
 * Sections of BENCHMARKS.md whose figures come from elsewhere than this run ("Operations", or a
 * heading that says "(measured by ...)", e.g. the multi-host test's lost-host figure): kept as they
 * are, at the end.
 */
async function measuredElsewhere(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  const kept: string[] = [];
  for (const section of text.split(/^(?=## )/m)) {
    if (/^## (Operations|.*\(measured by )/.test(section)) kept.push(section.trimEnd(), "");
  }
  return kept;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
