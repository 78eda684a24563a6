import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What `npm run worker` runs: the worker's production bundle (`npm run build -w @flagship/worker`). */
export const WORKER_BUNDLE = path.join(ROOT, "apps/worker/dist/main.js");

export interface WorkerProcess {
  id: string;
  log: string;
  child: ChildProcess;
  /** SIGTERM, as a process manager stops it; resolves once it exited. */
  stop(): Promise<void>;
  /** The last lines it logged, for a failing test's report. */
  tail(lines?: number): string;
}

/**
 * Starts a worker as `npm run worker` does (node on the bundle, settings in the environment). Its
 * log goes to `log`. The caller's DOCKER_HOST is never passed on: each worker gets its engine's.
 */
export function startWorkerProcess(options: { id: string; log: string; env: Record<string, string> }): WorkerProcess {
  if (!existsSync(WORKER_BUNDLE)) throw new Error(`${WORKER_BUNDLE} is missing: build the worker first (npm run build -w @flagship/worker)`);
  const inherited = { ...process.env };
  delete inherited.DOCKER_HOST;
  const out = openSync(options.log, "a");
  const child = spawn(process.execPath, [WORKER_BUNDLE], {
    cwd: ROOT,
    env: { ...inherited, WORKER_ID: options.id, LOG_LEVEL: "info", ...options.env },
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A test run that ends without its clean-up (interrupted) takes its workers with it.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  void exited.then(() => process.off("exit", orphaned));
  return {
    id: options.id,
    log: options.log,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        await exited;
        clearTimeout(timer);
      }
    },
    tail(lines = 30) {
      try {
        return readFileSync(options.log, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
      } catch {
        return "(no log)";
      }
    },
  };
}
