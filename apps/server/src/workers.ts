import { type ChildProcess, spawn } from "node:child_process";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import type { Logger } from "@flagship/api";
import { inheritedEnvironment } from "./env.ts";

// The compiled server starts the compiled worker; the sources (development, tests) the sources.
const COMPILED = import.meta.url.endsWith(".js");
const WORKER_ENTRY = fileURLToPath(new URL(COMPILED ? "../../worker/dist/main.js" : "../../worker/src/main.ts", import.meta.url));
const WORKER_ARGS = COMPILED ? ["--enable-source-maps", WORKER_ENTRY] : ["--import", "tsx", WORKER_ENTRY];
const RESTART_DELAY_MS = 2000;

/**
 * With REDIS_URL set, `npm start` also runs the worker tier on this machine: `count` worker
 * processes against the local Docker engine, on the same database (the embedded one included),
 * restarted if they die. Each is an ordinary worker, as `npm run worker` starts them. With the
 * server's metrics on `metricsPort`, worker i serves its own on `metricsPort + i` (same host).
 */
export function spawnWorkers(options: { count: number; databaseUrl: string; redisUrl: string; log: Logger; metricsPort?: number }): { stop(): Promise<void> } {
  const base = inheritedEnvironment();
  // The server's own port is not the workers' to take.
  delete base.METRICS_PORT;
  const children = new Set<ChildProcess>();
  let stopping = false;
  const start = (index: number) => {
    const child = spawn(process.execPath, WORKER_ARGS, {
      stdio: "inherit",
      env: {
        ...base,
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: options.redisUrl,
        WORKER_ID: `${base.WORKER_ID ?? hostname().replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 40)}-${index}`,
        ...(options.metricsPort !== undefined && { METRICS_PORT: String(options.metricsPort + index) }),
      },
    });
    children.add(child);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      options.log.warn({ code, signal, worker: index }, "a worker exited; starting it again");
      setTimeout(() => start(index), RESTART_DELAY_MS).unref();
    });
  };
  for (let i = 1; i <= options.count; i++) start(i);
  options.log.info({ workers: options.count }, "started the worker tier");
  return {
    async stop() {
      stopping = true;
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((resolve) => {
              const kill = setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
              child.once("exit", () => {
                clearTimeout(kill);
                resolve();
              });
              child.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}
