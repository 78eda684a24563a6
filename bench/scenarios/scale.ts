import { mkdir } from "node:fs/promises";
import { type Measurement, type Server, startCopies, startDatabase } from "../harness.ts";
import { SEED_10X, type Seeded, seedOrReuse } from "../seed.ts";
import { benchCategoryListing, benchIncorrectSubmission } from "./challenges.ts";
import { benchLeaderboard } from "./leaderboard.ts";
import { benchOwnProfile, benchOwnTeam } from "./player.ts";

export interface ScaleRow {
  name: string;
  base: Measurement;
  scaled: Measurement;
  /**
   * Per-request cost at 10x over that at 1x: the server copies' CPU time per answered request,
   * which hardly moves when other work shares the cores (1 / req/s where it was not measured).
   */
  costRatio: number;
  met: boolean;
}

/** The per-request scenarios, as one list, so 1x and 10x run the very same ones. */
export const PER_REQUEST: [key: string, run: (server: Server, seeded: Seeded) => Promise<Measurement>][] = [
  ["listing", benchCategoryListing],
  ["wrong", benchIncorrectSubmission],
  ["self", benchOwnProfile],
  ["team", benchOwnTeam],
  ["board", benchLeaderboard],
];

/**
 * BENCH_10X=1: a second event ten times the size (10000 teams, 20000 players, 50000 solves, the
 * same 100 challenges), seeded the same way, and the per-request scenarios again; each must cost
 * within 20% of the same scenario on the normal seed. With `dir` (BENCH_SEED_DIR's 10x folder) the
 * seeded database is kept there and reused.
 */
export async function benchTenfold(base: Map<string, Measurement>, log: (line: string) => void, dir?: string): Promise<{ rows: ScaleRow[]; seed: Seeded["counts"] }> {
  if (dir) await mkdir(dir, { recursive: true });
  const database = await startDatabase(dir);
  try {
    log("The 10x event...");
    const seeded = await seedOrReuse(database.url, SEED_10X, dir, log);
    const server = await startCopies(database.url);
    const rows: ScaleRow[] = [];
    try {
      for (const [key, run] of PER_REQUEST) {
        const before = base.get(key);
        if (!before) continue;
        log(`Measuring ${key} at 10x...`);
        const scaled = await run(server, seeded);
        const costRatio =
          before.cpuMsPerRequest > 0 && scaled.cpuMsPerRequest > 0 ? scaled.cpuMsPerRequest / before.cpuMsPerRequest : before.requestsPerSecond / Math.max(scaled.requestsPerSecond, 1);
        rows.push({ name: scaled.name, base: before, scaled, costRatio, met: costRatio <= 1.2 && scaled.errors + scaled.non2xx === 0 });
      }
    } finally {
      await server.stop();
    }
    return { rows, seed: seeded.counts };
  } finally {
    await database.stop();
  }
}
