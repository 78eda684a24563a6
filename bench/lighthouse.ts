// `npm run bench:lighthouse`: seeds a small event on a throwaway embedded PostgreSQL, starts the
// built server, runs Lighthouse's mobile preset on the player routes (scenarios/lighthouse.ts) and
// writes its section of BENCHMARKS.md in place (the rest of the file is kept). Needs the build
// (`npx turbo run build`) and Chromium (CHROME_PATH, /usr/bin/chromium by default).
// BENCH_LIGHTHOUSE_ROUTES (route names, comma-separated: "/leaderboard") measures those alone and
// prints them, each with its long tasks, leaving the table as it is.
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ROOT, startDatabase, startServer } from "./harness.ts";
import { benchLighthouse, LIGHTHOUSE_ONLY, lighthouseSection } from "./scenarios/lighthouse.ts";
import { SEED, seedEvent } from "./seed.ts";

/** The event's shape, with fewer teams: a page draws one page of the board whatever its length. */
const LIGHTHOUSE_SEED = { ...SEED, teams: 30 };

/** Replaces the Lighthouse section of BENCHMARKS.md (up to the next section), or adds it at the end. */
export async function writeLighthouseSection(section: string): Promise<void> {
  const file = path.join(ROOT, "BENCHMARKS.md");
  const current = await readFile(file, "utf8").catch(() => "");
  const start = current.indexOf("## Lighthouse (mobile)");
  if (start === -1) return writeFile(file, `${current.trimEnd()}\n\n${section}\n`);
  const next = current.indexOf("\n## ", start + 1);
  await writeFile(file, `${current.slice(0, start)}${section}\n${next === -1 ? "" : current.slice(next)}`);
}

async function main(): Promise<void> {
  const database = await startDatabase();
  try {
    const seeded = await seedEvent(database.url, LIGHTHOUSE_SEED);
    const server = await startServer(database.url);
    try {
      const rows = await benchLighthouse(server.baseUrl, seeded);
      // Some routes only (BENCH_LIGHTHOUSE_ROUTES): printed, the table left as it is.
      if (!LIGHTHOUSE_ONLY) await writeLighthouseSection(lighthouseSection(rows, os.loadavg()));
    } finally {
      await server.stop();
    }
  } finally {
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
