import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, createDb, type Db, databaseUrl, ensureDatabase, freePort, startEmbeddedPostgres } from "@flagship/db";
import { startRedis } from "@flagship/db/redis";
import autocannon from "autocannon";
import { serverEnv, serverNodeFlags } from "../scripts/server-flags.mjs";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The load generator. wrk (Debian's package `wrk`), written in C, when it is on the PATH: on a
 * two-core machine shared by generator, server and database, autocannon (JavaScript) itself took
 * a large part of a core at these rates, so the server was measured with less than the machine
 * had to give. Without wrk (or with BENCH_LOADGEN=autocannon) autocannon is used; BENCHMARKS.md
 * names the one that ran.
 */
export const GENERATOR: "wrk" | "autocannon" = process.env.BENCH_LOADGEN === "autocannon" || !onPath("wrk") ? "autocannon" : "wrk";
/**
 * BENCH_DEALING=in-turn|mixed: how the prepared requests of a scenario that names no way of its own
 * are dealt out to the copies (see LoadOptions.dealing; in turn unless set), to measure the main
 * table's rows both ways. The side-by-side comparison of a workload of many kinds (pages-cost) names
 * its own: as if at random.
 */
const DEALING_DEFAULT = ((value): "in-turn" | "mixed" => {
  if (value === undefined || value === "") return "in-turn";
  if (value === "in-turn" || value === "mixed") return value;
  throw new Error(`BENCH_DEALING must be in-turn or mixed, not ${value}`);
})(process.env.BENCH_DEALING);

function onPath(command: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

export interface Database {
  db: Db;
  url: string;
  stop(): Promise<void>;
}

/** BENCH_PROFILE=1: PostgreSQL loads pg_stat_statements, and each load() prints its top statements. */
export const PROFILE = process.env.BENCH_PROFILE === "1";
let profiled: Db | null = null;

/**
 * A throwaway embedded PostgreSQL with a migrated, empty database, at PostgreSQL's durable
 * defaults (fsync, synchronous_commit and full_page_writes on): an acknowledged solve is on disk.
 * With `keep`, the cluster lives in that folder and survives stop() (a reused seed, BENCH_SEED_DIR).
 */
export async function startDatabase(keep?: string): Promise<Database> {
  const dir = keep ?? (await mkdtemp(path.join(os.tmpdir(), "flagship-bench-")));
  const pg = await startEmbeddedPostgres({ dataDir: dir, ...(PROFILE && { settings: { shared_preload_libraries: "pg_stat_statements" } }) });
  await ensureDatabase(pg.baseUrl, "bench");
  const url = databaseUrl(pg.baseUrl, "bench");
  await applyMigrations(url);
  const db = createDb(url, { poolSize: 10 });
  if (PROFILE) {
    await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    profiled = db;
  }
  return {
    db,
    url,
    async stop() {
      if (profiled === db) profiled = null;
      await db.$disconnect();
      await pg.stop();
      if (!keep) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** With BENCH_PROFILE=1: forgets the statistics so far (before a scenario's passes). */
async function resetStatements(): Promise<void> {
  if (profiled) await profiled.$executeRawUnsafe("SELECT pg_stat_statements_reset()");
}

/** With BENCH_PROFILE=1: prints the statements that took the most database time since the reset. */
async function printStatements(): Promise<void> {
  if (!profiled) return;
  const rows = await profiled.$queryRawUnsafe<{ calls: bigint; total_ms: number; mean_ms: number; query: string }[]>(
    `SELECT calls, round(total_exec_time::numeric, 1)::float8 AS total_ms, round(mean_exec_time::numeric, 3)::float8 AS mean_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY calls DESC LIMIT 12`,
  );
  for (const r of rows) console.log(`    ${String(r.calls).padStart(8)} calls ${String(r.total_ms).padStart(9)} ms total ${String(r.mean_ms).padStart(8)} ms mean  ${r.query}`);
  const [all] = await profiled.$queryRawUnsafe<{ calls: bigint; total_ms: number }[]>(
    `SELECT COALESCE(sum(calls), 0)::bigint AS calls, round(COALESCE(sum(total_exec_time), 0)::numeric, 1)::float8 AS total_ms
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  console.log(`    ${String(all?.calls ?? 0).padStart(8)} calls ${String(all?.total_ms ?? 0).padStart(9)} ms total  (every statement)`);
}

export interface Server {
  /** The (first) copy's address. */
  baseUrl: string;
  /** The (first) copy's process, for its memory figures. */
  pid: number;
  /** Every copy's address and process: one each for a single server. */
  urls: string[];
  pids: number[];
  /** Every copy's /metrics, with BENCH_PAGE_STATS=1 (else empty): how its pages were answered. */
  metricsUrls: string[];
  stop(): Promise<void>;
}

/** Server processes now running, by pid, with the address each listens on. */
const running = new Map<number, string>();

/**
 * The running server processes a load is sent to (their CPU time and memory are what load()
 * measures), or every running one when none of them is among the targets.
 */
function measuredPids(url: string | string[]): number[] {
  const targets = new Set((Array.isArray(url) ? url : [url]).map((u) => new URL(u).origin));
  const pids = [...running].filter(([, origin]) => targets.has(origin)).map(([pid]) => pid);
  return pids.length > 0 ? pids : [...running.keys()];
}

/** A process's resident set (VmRSS) or its peak so far (VmHWM), in MiB; 0 once it has gone. */
export async function memoryMiB(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in ms; 0 once it has gone. */
export async function cpuMs(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time all of a server's copies have used so far, in ms. */
export async function serverCpuMs(server: Pick<Server, "pids">): Promise<number> {
  return (await Promise.all(server.pids.map(cpuMs))).reduce((a, b) => a + b, 0);
}

/** Polls the resident memory of the running servers every 200 ms; stop() answers the peak (MiB). */
export function watchMemory(pids: Iterable<number> = running.keys()): { stop(): Promise<number> } {
  const watched = [...pids];
  let peak = 0;
  const sample = async () => {
    for (const pid of watched) peak = Math.max(peak, await memoryMiB(pid));
  };
  const timer = setInterval(() => void sample(), 200);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}

/** BENCH_SERVER=file: another build of the server to measure (e.g. an earlier one, for a before/after). */
const SERVER_MAIN = process.env.BENCH_SERVER ?? "apps/server/dist/main.js";

/** BENCH_CPU_PROF=folder: each server process writes a V8 CPU profile there when it stops. */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;

/**
 * The real server in production mode (no throttles; no cap on sockets per address, since every
 * simulated player comes from 127.0.0.1) on a free port, as its own process, with npm start's flags.
 */
export async function startServer(url: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  // BENCH_PAGE_STATS=1: each copy serves /metrics, which the mixed workload reads for how many of its
  // pages were drawn (metrics cost a little CPU per request: not for the rows of BENCHMARKS.md).
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : process.env.BENCH_PAGE_STATS === "1" ? await freePort() : null;
  if (metricsPort !== null) env = { METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1", ...env };
  const profile = CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR)}`] : [];
  // BENCH_NODE_FLAGS: more Node.js flags for the server processes (e.g. --trace-gc).
  profile.push(...(process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? []));
  const child: ChildProcess = spawn(process.execPath, [...serverNodeFlags({ ...process.env, ...env }), ...profile, SERVER_MAIN], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: url, THROTTLE: "off", WS_MAX_PER_IP: "0", LOG_LEVEL: "warn", ...serverEnv(), ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const pid = child.pid!;
  running.set(pid, baseUrl);
  child.once("exit", () => running.delete(pid));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/v2/stats/version/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    pid,
    urls: [baseUrl],
    pids: [pid],
    metricsUrls: metricsPort === null ? [] : [`http://127.0.0.1:${metricsPort}/metrics`],
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Server copies measured together (BENCH_COPIES; by default one per core, at most two, when wrk
 * generates the load): as an operator runs them on one machine, each its own process on the same
 * PostgreSQL, with Redis carrying events between them. The load generator deals its connections
 * out to the copies evenly, as a proxy in front of them would.
 */
export const COPIES = Math.max(1, Number(process.env.BENCH_COPIES ?? (GENERATOR === "wrk" ? Math.min(2, os.availableParallelism()) : 1)));

/** `count` server copies (see COPIES), each with `env(copy)` added to its settings (e.g. a port of its own). */
export async function startCopies(url: string, count = COPIES, env: (copy: number) => Record<string, string> = () => ({})): Promise<Server> {
  if (count === 1) return startServer(url, env(0));
  const redis = await startRedis();
  if (!redis.url) throw new Error("BENCH_COPIES > 1 needs redis-server (Debian: apt-get install redis-server)");
  const copies = await Promise.all(Array.from({ length: count }, (_, copy) => startServer(url, { REDIS_URL: redis.url!, WORKERS: "0", ...env(copy) })));
  return {
    baseUrl: copies[0]!.baseUrl,
    pid: copies[0]!.pid,
    urls: copies.map((c) => c.baseUrl),
    pids: copies.map((c) => c.pid),
    metricsUrls: copies.flatMap((c) => c.metricsUrls),
    async stop() {
      await Promise.all(copies.map((c) => c.stop()));
      await redis.stop();
    },
  };
}

export interface Measurement {
  name: string;
  /** Medians over the measured passes. */
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx answers over all passes. */
  errors: number;
  non2xx: number;
  /** The peak resident memory of the server process(es) while measuring, in MiB. */
  rssMiB: number;
  /**
   * The server processes' CPU time per answered request while measuring, in ms: unlike requests
   * per second it hardly moves when other work shares the machine's cores.
   */
  cpuMsPerRequest: number;
  /** Requests per second of each pass. */
  passes: number[];
  /**
   * The passes at the goal's rate (medians), when the scenario has one: the latency the goal's p99
   * is held to, while the passes above show the most the server answers (at 100 connections).
   */
  atGoal?: { offered: number; connections: number; requestsPerSecond: number; p50: number; p99: number; errors: number; late: number; lateShare: number };
  goal: string;
  met: boolean;
}

export const PASSES = 3;
/** Seconds per measured pass (BENCH_SECONDS overrides) and of the warm-up before them. */
export const PASS_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP_SECONDS = 3;

export interface LoadOptions {
  /** The server, or its copies: the connections are dealt out to them evenly. */
  url: string | string[];
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  /**
   * Before the timed warm-up, send the first this many prepared requests once each (one per
   * player, for the scenarios that go through every player's token in turn).
   */
  warmEach?: number;
  passes?: number;
  requests?: autocannon.Request[];
  /**
   * The goal's rate (requests per second over all copies): after the passes at saturation, as many
   * passes again at that rate (see PACED_CONNECTIONS), whose latency is the one the goal's p99 is
   * held to.
   */
  atRate?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * How the prepared requests are dealt out to the copies: in turn (the default unless BENCH_DEALING
   * says otherwise, as the main table was measured), or as if at random (a fixed hash of each
   * request's place), so that each copy gets every kind of a workload whose kinds repeat in a cycle,
   * and every player's requests (dealt in turn, two copies and a cycle of 150 give one copy every
   * even place and the other every odd one).
   */
  dealing?: "in-turn" | "mixed";
}

interface Passes {
  rps: number[];
  p50: number[];
  p99: number[];
  errors: number;
  non2xx: number;
  rssMiB: number;
  cpuMsPerRequest: number;
  /** The passes at the goal's rate, when the load had one. */
  paced?: PacedPasses;
}

interface PacedPasses {
  offered: number;
  connections: number;
  rps: number[];
  p50: number[];
  p99: number[];
  errors: number;
  non2xx: number;
  late: number;
  answered: number;
}

// What load() measured over all its passes, for summarise() (which only sees one result).
const measured = new WeakMap<LoadResult, Passes>();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One run's figures, whichever generator made them (the fields summarise() reads). */
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  /** At a set rate (wrk): requests sent behind their schedule. */
  late?: number;
  /**
   * With wrk, each target's share: the requests it answered and those that failed (errors, timeouts,
   * non-2xx), and its latency at each tenth of a percent (ms), for percentiles over several targets.
   */
  byTarget?: { url: string; requests: number; failed: number; quantiles: number[] }[];
}

/**
 * wrk's script: reads the prepared requests (raw HTTP, each after a line with its length, and
 * " once" for a request that may be sent only once, such as a correct flag) and sends them in
 * turn, wrapping around without the once-only ones (or, with the argument "through", ending the
 * process at the end of the list: its figures are not wanted, and wrk itself only stops at the end
 * of its duration); prints the figures as one JSON line when done.
 */
const WRK_SCRIPT = String.raw`
local requests, once, count, next, wrapped, through = {}, {}, 0, 0, false, false
-- Requests sent behind their schedule (runs at a set rate), counted in each thread's own state.
late = 0
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end
function init(args)
  through = args[2] == "through"
  local file = assert(io.open(args[1], "rb"))
  local data = file:read("*a")
  file:close()
  local at = 1
  while at <= #data do
    local newline = string.find(data, "\n", at, true)
    local header = string.sub(data, at, newline - 1)
    local length = tonumber(string.match(header, "^%d+"))
    count = count + 1
    requests[count] = string.sub(data, newline + 1, newline + length)
    once[count] = string.find(header, " once", 1, true) ~= nil
    at = newline + 1 + length
  end
end
function request()
  repeat
    next = next + 1
    if next > count then
      if through then os.exit(0) end
      next, wrapped = 1, true
    end
  until not (wrapped and once[next])
  return requests[next]
end
function done(summary, latency, requests)
  local e = summary.errors
  local late = 0
  for _, thread in ipairs(threads) do late = late + (thread:get("late") or 0) end
  local quantiles = {}
  for q = 1, 1000 do quantiles[q] = string.format("%.3f", latency:percentile(q / 10) / 1000) end
  io.write(string.format('{"requests":%d,"duration":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"late":%d,"quantiles":[%s]}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, late, table.concat(quantiles, ",")))
end
`;

/**
 * A run at a set rate is open-loop: requests are sent at the moments of a Poisson process of that
 * rate (independent players' requests arriving at random, not in lockstep), whatever the answers
 * do, and each is timed from when it is sent. A schedule needs idle connections to send on, so
 * there are many (PACED_CONNECTIONS); a request whose moment came while every connection was
 * still waiting for an answer goes out late, is counted (`late`), and its wait before sending is
 * not in its latency, so a run with late requests under-reports the p99 (see summarise()).
 */
export const PACED_CONNECTIONS = 1000;

/**
 * wrk's delay() hook for a run at a set rate: each request takes the next moment of the schedule
 * (exponential gaps with the given mean, ms) and waits for it. The clock is the monotonic one,
 * through LuaJIT's FFI (wrk's Lua has no clock of its own).
 */
function pacedScript(meanGapMs: number, index: number): string {
  return `${WRK_SCRIPT}
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } flagship_timespec;
int clock_gettime(int clock, flagship_timespec *at);
]]
local at = ffi.new("flagship_timespec")
local function now()
  ffi.C.clock_gettime(1, at)
  return tonumber(at.tv_sec) * 1000 + tonumber(at.tv_nsec) / 1e6
end
math.randomseed(${Date.now() % 1_000_000} + ${index})
local gap, due = ${meanGapMs.toFixed(4)}, nil
function delay()
  local t = now()
  due = (due or t) - gap * math.log(1 - math.random())
  local wait = due - t
  if wait < -1 then late = late + 1 end
  if wait < 0 then return 0 end
  return wait
end
`;
}

/** Requests prepared per second of a wrk run (more than any scenario reaches here), up to a bound for long runs, after which wrk wraps around. */
const WRK_PREPARED_PER_SECOND = 20_000;
const WRK_PREPARED_MAX = 200_000;

let wrkDir: string | null = null;

/** A request's place mixed into a number that looks random and is the same every run (a 32-bit integer hash). */
function dealt(place: number): number {
  let x = Math.imul(place ^ (place >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * The raw HTTP requests of a run, in the order autocannon's setupRequest would produce them, dealt
 * out to `targets` lists (one per server copy) as `options.dealing` says.
 */
function prepareRequests(options: LoadOptions, targets: string[], count: number): string[] {
  const templates: autocannon.Request[] = options.requests ?? [{ method: options.method ?? "GET", path: new URL(targets[0]!).pathname, ...(options.headers && { headers: options.headers }), ...(options.body && { body: options.body }) }];
  const parts: string[][] = targets.map(() => []);
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length]!;
    const base = { method: template.method ?? options.method ?? "GET", path: template.path ?? "/", headers: { ...options.headers, ...template.headers }, body: template.body ?? options.body };
    const setup = template.setupRequest as ((req: autocannon.Request, context: object) => autocannon.Request) | undefined;
    const req = (setup ? setup(base as autocannon.Request, {}) : base) as { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; once?: boolean };
    // Dealt as if at random, each target still gets one of the first requests: no list is empty.
    const target = (options.dealing ?? DEALING_DEFAULT) === "mixed" && i >= targets.length ? dealt(i) % targets.length : i % targets.length;
    const body = req.body === undefined ? "" : String(req.body);
    const headers = { host: new URL(targets[target]!).host, ...req.headers, ...(body && { "content-length": String(Buffer.byteLength(body)) }) };
    const raw = `${req.method ?? "GET"} ${req.path ?? "/"} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n${body}`;
    parts[target]!.push(`${Buffer.byteLength(raw)}${req.once ? " once" : ""}\n${raw}`);
  }
  return parts.map((p) => p.join(""));
}

interface WrkFigures {
  requests: number;
  duration: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  /** Requests of a run at a set rate sent behind their schedule (every connection was busy). */
  late: number;
  /** Latency (ms) at each tenth of a percent, 0.1 to 100. */
  quantiles: number[];
}

/** The latency at `percent` of the requests of several runs together, from each run's quantiles weighted by its requests. */
export function mergedPercentile(runs: Pick<WrkFigures, "requests" | "quantiles">[], percent: number): number {
  const points = runs.flatMap((r) => r.quantiles.map((latency) => ({ latency, weight: r.requests / r.quantiles.length }))).sort((a, b) => a.latency - b.latency);
  const total = points.reduce((sum, p) => sum + p.weight, 0);
  let seen = 0;
  for (const point of points) {
    seen += point.weight;
    if (seen >= (total * percent) / 100 - 1e-9) return point.latency;
  }
  return points.at(-1)?.latency ?? 0;
}

/**
 * One wrk run of `seconds` per server copy, all at once, the connections shared out (one thread
 * each); with `through`, a run of exactly that many prepared requests (`seconds` then bounds it).
 */
async function runWrk(options: LoadOptions, seconds: number, through?: number, rate?: number): Promise<LoadResult> {
  wrkDir ??= await mkdtemp(path.join(os.tmpdir(), "flagship-wrk-"));
  const targets = Array.isArray(options.url) ? options.url : [options.url];
  const connections = rate ? PACED_CONNECTIONS : (options.connections ?? 100);
  const perSecond = rate ? Math.ceil(rate * 1.2) : WRK_PREPARED_PER_SECOND;
  const lists = prepareRequests(options, targets, Math.max(targets.length, through ?? Math.min(WRK_PREPARED_MAX, Math.ceil(seconds * perSecond))));
  const runs = await Promise.all(
    targets.map(async (target, i) => {
      const file = path.join(wrkDir!, `requests-${i}.txt`);
      await writeFile(file, lists[i]!);
      const share = Math.floor(connections / targets.length) + (i < connections % targets.length ? 1 : 0);
      // Each copy is sent its share of the rate, in proportion to its connections.
      // A script per copy: the runs start together, and one must not read another's half-written file.
      const script = path.join(wrkDir!, rate ? `paced-${i}.lua` : `requests-${i}.lua`);
      await writeFile(script, rate ? pacedScript((1000 * connections) / (rate * share), i) : WRK_SCRIPT);
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          "wrk",
          ["-t1", `-c${share}`, `-d${seconds}s`, "--timeout", "10s", "-s", script, new URL(target).origin, "--", file, ...(through ? ["through"] : [])],
          { maxBuffer: 1 << 22 },
          (error, out) => (error ? reject(error) : resolve(out)),
        ),
      );
      return through ? null : (JSON.parse(stdout.trim().split("\n").at(-1)!) as WrkFigures);
    }),
  );
  const figures = runs.filter((r): r is WrkFigures => r !== null);
  const sum = (f: (r: WrkFigures) => number) => figures.reduce((total, r) => total + f(r), 0);
  const byTarget = through ? [] : targets.map((url, i) => ({ url, requests: runs[i]!.requests, failed: runs[i]!.connect + runs[i]!.read + runs[i]!.write + runs[i]!.timeout + runs[i]!.status, quantiles: runs[i]!.quantiles }));
  return {
    byTarget,
    requests: { average: sum((r) => r.requests / (r.duration / 1e6)), total: sum((r) => r.requests) },
    latency: { p50: mergedPercentile(figures, 50), p99: mergedPercentile(figures, 99) },
    errors: sum((r) => r.connect + r.read + r.write),
    timeouts: sum((r) => r.timeout),
    non2xx: sum((r) => r.status),
    late: sum((r) => r.late ?? 0),
  };
}

/**
 * The first `count` prepared requests, each sent once: as every player reads a page once in the
 * first minutes of an event, so the passes measure a running event rather than its first reads
 * (with 20000 players, a 3-second warm-up reaches only some of them). Bounded at two minutes.
 */
export async function warmEach(options: LoadOptions, count: number): Promise<void> {
  if (GENERATOR === "wrk") {
    await runWrk(options, 120, count);
    return;
  }
  await autocannon({ ...autocannonOptions(options), amount: count });
}

/** autocannon's options for a load (it measures one server copy); at a set rate, autocannon's own pacing. */
function autocannonOptions(options: LoadOptions, rate?: number): autocannon.Options {
  if (Array.isArray(options.url) && options.url.length > 1) throw new Error("autocannon measures one server copy: BENCH_COPIES=1");
  return {
    url: Array.isArray(options.url) ? options.url[0]! : options.url,
    connections: rate ? PACED_CONNECTIONS : (options.connections ?? 100),
    ...(rate && { overallRate: rate }),
    ...(options.requests && { requests: options.requests }),
    ...(options.method && { method: options.method }),
    ...(options.headers && { headers: options.headers }),
    ...(options.body && { body: options.body }),
  };
}

/** One run of the chosen generator: as fast as the server answers, or at `rate` requests per second. */
export function run(options: LoadOptions, seconds: number, rate?: number): Promise<LoadResult> {
  if (GENERATOR === "wrk") return runWrk(options, seconds, undefined, rate);
  return autocannon({ ...autocannonOptions(options, rate), duration: seconds });
}

/**
 * A warm-up run first (JIT, caches, pools), then PASSES measured runs while the memory of the
 * servers the load is sent to is sampled; with `atRate`, PASSES more at that rate. Answers the
 * pass with the median rate; summarise() reports the medians of all passes and their errors.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.warmEach) await warmEach(options, options.warmEach);
  await run(options, options.warmupSeconds ?? WARMUP_SECONDS);
  await resetStatements();
  const servers = measuredPids(options.url);
  const memory = watchMemory(servers);
  const cpuBefore = await serverCpuMs({ pids: servers });
  const results: LoadResult[] = [];
  const passes = options.passes ?? PASSES;
  for (let i = 0; i < passes; i++) results.push(await run(options, options.seconds ?? PASS_SECONDS));
  const cpuSpent = (await serverCpuMs({ pids: servers })) - cpuBefore;
  const answered = results.reduce((sum, r) => sum + r.requests.total, 0);
  const paced: LoadResult[] = [];
  for (let i = 0; options.atRate && i < passes; i++) paced.push(await run(options, options.seconds ?? PASS_SECONDS, options.atRate));
  const rssMiB = await memory.stop();
  await printStatements();
  const rps = results.map((r) => r.requests.average);
  const chosen = results.find((r) => r.requests.average === median(rps)) ?? [...results].sort((a, b) => a.requests.average - b.requests.average)[Math.floor(results.length / 2)]!;
  measured.set(chosen, {
    rps,
    p50: results.map((r) => r.latency.p50),
    p99: results.map((r) => r.latency.p99),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    rssMiB,
    cpuMsPerRequest: answered > 0 ? cpuSpent / answered : 0,
    ...(options.atRate && {
      paced: {
        offered: options.atRate,
        connections: PACED_CONNECTIONS,
        rps: paced.map((r) => r.requests.average),
        p50: paced.map((r) => r.latency.p50),
        p99: paced.map((r) => r.latency.p99),
        errors: paced.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
        non2xx: paced.reduce((sum, r) => sum + r.non2xx, 0),
        late: paced.reduce((sum, r) => sum + (r.late ?? 0), 0),
        answered: paced.reduce((sum, r) => sum + r.requests.total, 0),
      },
    }),
  });
  return chosen;
}

export function summarise(name: string, result: LoadResult, goal: { rps: number; p99: number; rssMiB?: number }): Measurement {
  const passes = measured.get(result) ?? {
    rps: [result.requests.average],
    p50: [result.latency.p50],
    p99: [result.latency.p99],
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    rssMiB: 0,
    cpuMsPerRequest: 0,
  };
  const rps = Math.round(median(passes.rps));
  const p99 = median(passes.p99);
  const memoryMet = goal.rssMiB === undefined || passes.rssMiB <= goal.rssMiB;
  const paced = passes.paced;
  const atGoal = paced && {
    offered: paced.offered,
    connections: paced.connections,
    requestsPerSecond: Math.round(median(paced.rps)),
    p50: median(paced.p50),
    p99: median(paced.p99),
    errors: paced.errors + paced.non2xx,
    late: paced.late,
    lateShare: paced.answered > 0 ? paced.late / paced.answered : 0,
  };
  // With passes at the goal's rate, the goal is the rate answered at saturation, and that rate
  // answered within the p99 when offered; without them, both from the saturated passes.
  // More than one request in a thousand sent late would leave its wait out of the p99: not met.
  const latencyMet = atGoal ? atGoal.requestsPerSecond >= goal.rps * 0.98 && atGoal.lateShare <= 0.001 && atGoal.p99 < goal.p99 && atGoal.errors === 0 : p99 < goal.p99;
  return {
    name,
    requestsPerSecond: rps,
    p50: median(passes.p50),
    p99,
    errors: passes.errors,
    non2xx: passes.non2xx,
    rssMiB: passes.rssMiB,
    cpuMsPerRequest: Math.round(passes.cpuMsPerRequest * 1000) / 1000,
    passes: passes.rps.map(Math.round),
    ...(atGoal && { atGoal }),
    goal: `>= ${goal.rps} req/s, p99 < ${goal.p99} ms${atGoal ? " at that rate" : ""}${goal.rssMiB === undefined ? "" : `, RSS <= ${goal.rssMiB} MiB`}`,
    met: rps >= goal.rps && latencyMet && passes.errors === 0 && passes.non2xx === 0 && memoryMet,
  };
}
