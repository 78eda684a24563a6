import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "@flagship/db";
import { serverEnv, serverNodeFlags } from "../../scripts/server-flags.mjs";
import { ROOT } from "../harness.ts";

/**
 * The compiled server from process start to its first 200: on the embedded PostgreSQL (a fresh
 * data directory, so initdb and the migrations are included, then again on the same directory)
 * and on an external database; then its resident memory after ten seconds at rest.
 */
export interface StartResult {
  name: string;
  value: string;
}

async function startAndTime(env: Record<string, string>): Promise<{ ms: number; child: ChildProcess }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...serverNodeFlags(), "apps/server/dist/main.js"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...serverEnv(), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v2/stats/version/`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 20));
  }
  return { ms: performance.now() - started, child };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export async function benchColdStart(externalUrl: string): Promise<StartResult[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "flagship-coldstart-"));
  try {
    const fresh = await startAndTime({ DATA_DIR: dir });
    await stop(fresh.child);
    const again = await startAndTime({ DATA_DIR: dir });
    await stop(again.child);
    const external = await startAndTime({ DATABASE_URL: externalUrl });
    await new Promise((r) => setTimeout(r, 10_000));
    const rss = await rssMiB(external.child.pid!);
    await stop(external.child);
    return [
      { name: "Cold start to the first 200, embedded PostgreSQL, new data directory (initdb and migrations included)", value: `${(fresh.ms / 1000).toFixed(2)} s` },
      { name: "Cold start to the first 200, embedded PostgreSQL, existing data", value: `${(again.ms / 1000).toFixed(2)} s` },
      { name: "Cold start to the first 200, external PostgreSQL", value: `${(external.ms / 1000).toFixed(2)} s` },
      { name: "Server memory at rest (resident, 10 s after start, external PostgreSQL)", value: `${rss} MiB` },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
