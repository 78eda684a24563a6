// Runs child processes for a launcher script so that process managers and `docker stop` work:
// the signals the launcher gets (SIGINT, SIGTERM, SIGHUP) go on to the child that is running, and
// the launcher ends when that child ends, with its exit status.
import { spawn } from "node:child_process";
import os from "node:os";

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];

let current = null;
let stopping = null;
for (const signal of FORWARDED) {
  process.on(signal, () => {
    stopping = signal;
    if (current) current.kill(signal);
    else process.exit(128 + os.constants.signals[signal]);
  });
}

/**
 * Runs `command` with `args`, passing signals on; resolves with its exit code (128 + the signal's
 * number when a signal ended it). After a forwarded signal the launcher stops with the child.
 */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    if (stopping) return resolve(128 + os.constants.signals[stopping]);
    const child = spawn(command, args, { stdio: "inherit", ...options });
    current = child;
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      current = null;
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}

/** Whether a forwarded signal asked the launcher to stop. */
export function stopRequested() {
  return stopping !== null;
}
