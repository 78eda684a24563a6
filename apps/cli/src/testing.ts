import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestWorld, createUser, type TestUser, type TestWorld } from "@flagship/api/testing";
import { freePort } from "@flagship/db";

/**
 * The set-up of the command's end-to-end tests: a real server started as `npm start` would, with a
 * staff account's personal access token, and the command run through `npx flagship` as a person
 * would run it.
 */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface Server {
  url: string;
  world: TestWorld;
  staff: TestUser;
  token: string;
  child: ChildProcess;
  dataDir: string;
}

export async function startServer(): Promise<Server> {
  const world = await createTestWorld();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "flagship-cli-server-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), THROTTLE: "off", LOG_LEVEL: "warn", WORKERS: "0", DATABASE_URL: world.database.url, DATA_DIR: dataDir },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (await fetch(`${url}/api/v2/stats/version/`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const staff = await createUser(world, { isStaff: true });
  // The tool runs with a personal access token, as staff would set it up.
  const made = await api<{ token: string }>(url, staff.token, "POST", "/auth/tokens/", { name: "challenge sync", expires_in_days: 1 });
  return { url, world, staff, token: made.token, child, dataDir };
}

export async function stopServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  if (server.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
  }
  await server.world.close();
  await rm(server.dataDir, { recursive: true, force: true });
}

export async function api<T = any>(url: string, token: string, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}/api/v2${pathname}`, {
    method,
    headers: { authorization: `Token ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { s: boolean; m: string; d: T };
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`);
  return json.d;
}

/** Runs `npx flagship ...` from the project root, as a person would. */
export function flagship(server: Server | null, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...(server && { FLAGSHIP_URL: server.url, FLAGSHIP_TOKEN: server.token }) };
    const child = spawn("npx", ["--no-install", "flagship", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}


/** Writes a challenge folder below `root`: its challenge.yml and the files beside it. */
export async function writeChallenge(root: string, folder: string, yml: string, files: Record<string, string | Buffer> = {}): Promise<void> {
  const dir = path.join(root, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "challenge.yml"), yml);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
}

/** A new empty folder for a test repository. */
export const tempRepository = () => mkdtemp(path.join(os.tmpdir(), "flagship-repo-"));
