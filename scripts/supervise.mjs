// Runs child processes for a launcher script so that process managers and `docker stop` work:
// the signals the launcher gets (SIGINT, SIGTERM, SIGHUP) go on to the child that is running, and
// the launcher ends when that child ends, with its exit status.
import { spawn } from "node:child_process";
import os from "node:os";

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];
const PARENT_POLL_MS = 250;

let current = null;
let stopping = null;

function stop(signal) {
  stopping = signal;
  if (current) current.kill(signal);
  else process.exit(128 + os.constants.signals[signal]);
}

for (const signal of FORWARDED) process.on(signal, () => stop(signal));

/**
 * Stops the launcher (as SIGTERM would) when the process that started it is gone. `npm start`
 * runs its script through `sh -c` and passes SIGTERM and SIGINT to that shell only: dash dies of
 * them without passing them on, npm exits with it, and the launcher, the server and its database
 * were left running with nobody to stop them. (`npm start` execs the launcher, so the signal
 * reaches it directly; this covers npm killed outright, or a shell that does not exec.) Only for
 * a launcher that npm started: one started by hand and left running in the background after its
 * shell ends (nohup) keeps running.
 */
export function stopWithParent(env = process.env) {
  if (!env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    if (!stopping) stop("SIGTERM");
  }, PARENT_POLL_MS);
  timer.unref();
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
