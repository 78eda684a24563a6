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
 * same 100 challenges), seeded the same way, and the per-request scenarios on both events; each
 * must cost within 20% at 10x of what it costs on the normal seed. The two are measured in pairs,
 * one right after the other on fresh copies of each event's servers, taking turns at going first:
 * CPU time per request moves by about a fifth between runs minutes apart on a shared two-core
 * machine, more than the goal allows, and a pair measured together sees the same machine. With
 * `dir` (BENCH_SEED_DIR's 10x folder) the seeded database is kept there and reused.
 */
export async function benchTenfold(base: { url: string; seeded: Seeded }, keys: Set<string>, log: (line: string) => void, dir?: string): Promise<{ rows: ScaleRow[]; seed: Seeded["counts"] }> {
  if (dir) await mkdir(dir, { recursive: true });
  const database = await startDatabase(dir);
  try {
    log("The 10x event...");
    const seeded = await seedOrReuse(database.url, SEED_10X, dir, log);
    const normal = await startCopies(base.url);
    const tenfold = await startCopies(database.url);
    const rows: ScaleRow[] = [];
    try {
      let turn = 0;
      for (const [key, run] of PER_REQUEST) {
        if (!keys.has(key)) continue;
        const measureNormal = async () => {
          log(`Measuring ${key} at 1x...`);
          return run(normal, base.seeded);
        };
        const measureTenfold = async () => {
          log(`Measuring ${key} at 10x...`);
          return run(tenfold, seeded);
        };
        let before: Measurement;
        let scaled: Measurement;
        if (turn++ % 2 === 0) {
          before = await measureNormal();
          scaled = await measureTenfold();
        } else {
          scaled = await measureTenfold();
          before = await measureNormal();
        }
        const costRatio =
          before.cpuMsPerRequest > 0 && scaled.cpuMsPerRequest > 0 ? scaled.cpuMsPerRequest / before.cpuMsPerRequest : before.requestsPerSecond / Math.max(scaled.requestsPerSecond, 1);
        rows.push({ name: scaled.name, base: before, scaled, costRatio, met: costRatio <= 1.2 && scaled.errors + scaled.non2xx === 0 });
      }
    } finally {
      await Promise.all([normal.stop(), tenfold.stop()]);
    }
    return { rows, seed: seeded.counts };
  } finally {
    await database.stop();
  }
}
