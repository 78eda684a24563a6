// `npm run bench`: seeds a fresh embedded PostgreSQL, starts the server in production mode with
// throttles off, measures each scenario with autocannon after a warm-up, and writes BENCHMARKS.md.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ROOT, type Measurement, startDatabase, startServer } from "./harness.ts";
import { benchCategoryListing, benchIncorrectSubmission, seedChallenges } from "./scenarios/challenges.ts";
import { benchChallengeServers, type TierResult } from "./scenarios/challenge-servers.ts";
import { benchColdStart, type StartResult } from "./scenarios/cold-start.ts";
import { benchFanout, type FanoutResult } from "./scenarios/fanout.ts";
import { benchLeaderboard, seedLeaderboard } from "./scenarios/leaderboard.ts";
import { benchStampede, stampedeSection } from "./scenarios/stampede.ts";

async function main(): Promise<void> {
  const database = await startDatabase();
  const measurements: Measurement[] = [];
  let fanout: FanoutResult | null = null;
  let tier: TierResult[] | string = "not measured";
  let starts: StartResult[] = [];
  let stampede: string[] = [];
  try {
    console.log("Seeding...");
    await seedLeaderboard(database.db);
    const game = await seedChallenges(database.url);
    const server = await startServer(database.url);
    try {
      console.log("Measuring the team leaderboard...");
      measurements.push(await benchLeaderboard(server));
      console.log("Measuring the category listing...");
      measurements.push(await benchCategoryListing(server, game));
      console.log("Measuring incorrect flag submissions...");
      measurements.push(await benchIncorrectSubmission(server, game));
      console.log("Measuring websocket fan-out...");
      fanout = await benchFanout(server, database.db);
    } finally {
      await server.stop();
    }
    console.log("Measuring cold start and memory at rest...");
    starts = await benchColdStart(database.url);
    console.log("Measuring challenge servers...");
    tier = await benchChallengeServers(database.url, game);
    console.log("Measuring the event-start stampede...");
    stampede = stampedeSection(await benchStampede(database.url));
  } finally {
    await database.stop();
  }
  await writeReport(measurements, fanout, tier, starts, stampede);
  for (const m of measurements) console.log(`${m.met ? "met " : "MISS"}  ${m.name}: ${m.requestsPerSecond} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms`);
  if (fanout) console.log(`${fanout.met ? "met " : "MISS"}  ${fanout.name}: ${fanout.milliseconds} ms`);
  if (typeof tier === "string") console.log(`challenge servers ${tier}`);
  else for (const t of tier) console.log(`${t.met ? "met " : "MISS"}  ${t.name}: ${t.value}`);
}

async function writeReport(measurements: Measurement[], fanout: FanoutResult | null, tier: TierResult[] | string, starts: StartResult[], stampede: string[]): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    "# Benchmarks",
    "",
    "Written by `npm run bench`: a fresh embedded PostgreSQL, the server in production mode",
    "(`NODE_ENV=production`, `THROTTLE=off`) in its own process, and autocannon with 100 connections",
    "after a 3-second warm-up, measuring for 10 seconds. Load generator, server and database share",
    "the machine.",
    "",
    `Machine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}. Run ${new Date().toISOString()}.`,
    "",
    "| scenario | requests/s | p50 | p99 | errors | goal | met |",
    "|---|---:|---:|---:|---:|---|---|",
    ...measurements.map(
      (m) => `| ${m.name} | ${m.requestsPerSecond} | ${m.p50} ms | ${m.p99} ms | ${m.errors + m.non2xx} | ${m.goal} | ${m.met ? "yes" : "no"} |`,
    ),
    "",
  ];
  if (fanout) {
    lines.push("| realtime scenario | time | goal | met |", "|---|---:|---|---|", `| ${fanout.name} | ${fanout.milliseconds} ms | ${fanout.goal} | ${fanout.met ? "yes" : "no"} |`, "");
  }
  if (starts.length > 0) {
    lines.push("The compiled server (`apps/server/dist/main.js`), started as its own process:", "", "| start-up | result |", "|---|---|", ...starts.map((s) => `| ${s.name} | ${s.value} |`), "");
  }
  lines.push(
    "Challenge servers: a server with Redis and one worker process on this machine's Docker engine,",
    "instances from a busybox image built locally, published on 127.0.0.1; jobs submitted over REST.",
    "",
  );
  if (typeof tier === "string") lines.push(`Challenge servers ${tier}.`, "");
  else lines.push("| challenge-server scenario | result | goal | met |", "|---|---|---|---|", ...tier.map((t) => `| ${t.name} | ${t.value} | ${t.goal} | ${t.met ? "yes" : "no"} |`), "");
  lines.push(...stampede);
  await writeFile(path.join(ROOT, "BENCHMARKS.md"), lines.join("\n"));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
