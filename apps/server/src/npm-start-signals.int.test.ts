import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@flagship/db";
import { JEMALLOC_CONF, serverEnv } from "../../../scripts/server-flags.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npm start` as a process manager runs it: the signal goes to npm's own process, not to the
 * launcher. Everything npm start brought up (the launcher, the server, its embedded PostgreSQL,
 * its worker) must be gone within the shutdown timeout, and the port closed.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SHUTDOWN_TIMEOUT_MS = 15_000;

let dataDir: string;
let redis: ChildProcess;
let redisPort: number;
const leftovers = new Set<number>();

interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

function processTable(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name sits in parentheses and may itself contain spaces or parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      table.push({ pid: Number(entry), state: fields[0]!, ppid: Number(fields[1]), command });
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

function descendants(root: number): ProcessInfo[] {
  const table = processTable();
  const found: ProcessInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of table) {
      if (!parents.has(info.pid) && parents.has(info.ppid)) {
        parents.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found;
}

/** Alive: in the table and not a zombie (an orphan's zombie waits for whoever adopts it). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "flagship-npm-start-"));
  // A redis-server of this test's own, so that npm start also runs a worker, and that worker
  // takes no job of any other test.
  redisPort = await freePort();
  redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await until("redis-server", () => accepts(redisPort), 10_000);
});

afterAll(() => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, "SIGKILL");
  redis.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(["SIGTERM", "SIGINT", "SIGKILL"] as const)("%s to npm start's own process", (signal) => {
  it("stops the launcher, the server, its embedded PostgreSQL and its worker, and closes the port", async () => {
    const port = await freePort();
    const databasePort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      EMBEDDED_DATABASE_PORT: String(databasePort),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      WORKERS: "1",
      DEPLOYMENT_ID: `npmstart${process.pid}`,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: "warn",
      TURBO_TELEMETRY_DISABLED: "1",
    };
    delete env.DATABASE_URL;
    // Not detached: npm is in the test's process group, as under a shell or a process manager
    // that signals one process.
    const npm = spawn("npm", ["start"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
    const npmExited = new Promise((resolve) => npm.once("exit", resolve));
    const ready = async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok === true;
    // The first start builds the apps (turbo's cache makes the second quick) and makes the database.
    await until("npm start to serve", ready, 540_000);
    await until("npm start's worker", () => descendants(npm.pid!).some((p) => p.command.includes("worker/dist/main.js")), 30_000);
    const started = descendants(npm.pid!);
    for (const info of started) leftovers.add(info.pid);
    const kinds = (info: ProcessInfo) =>
      info.command.includes("scripts/start.mjs") ? "launcher" : info.command.includes("server/dist/main.js") ? "server" : info.command.includes("worker/dist/main.js") ? "worker" : /postgres/.test(info.command) ? "postgres" : "other";
    expect([...new Set(started.map(kinds))]).toEqual(expect.arrayContaining(["launcher", "server", "worker", "postgres"]));
    expect(await accepts(databasePort)).toBe(true);
    // The server npm start runs is on jemalloc with its settings, without which every login faults a hash's 19 MiB in again.
    if (serverEnv().LD_PRELOAD) {
      const server = started.find((info) => kinds(info) === "server")!;
      expect(readFileSync(`/proc/${server.pid}/maps`, "utf8")).toContain("libjemalloc");
      expect(readFileSync(`/proc/${server.pid}/environ`, "utf8").split("\0")).toContain(`MALLOC_CONF=${JEMALLOC_CONF}`);
    }

    const signalled = Date.now();
    process.kill(npm.pid!, signal);
    await until("every process npm start brought up to end", () => started.every((info) => !alive(info.pid)), SHUTDOWN_TIMEOUT_MS + 5000);
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 5000);
    await npmExited;
    expect(await accepts(port)).toBe(false);
    expect(await accepts(databasePort)).toBe(false);
  }, 600_000);
});
