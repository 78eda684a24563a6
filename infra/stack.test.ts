import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSocket } from "../apps/server/src/realtime/ws-client.ts";
import { serverNodeFlags } from "../scripts/server-flags.mjs";

/**
 * The production stack as an operator runs it (docker-compose.yml, the images built from the
 * Dockerfiles), driven through nginx on 127.0.0.1 only: accounts, a solve seen on the board and
 * by sockets on both server copies, a challenge server deployed by the workers, scaling while
 * traffic runs, a server copy killed mid-traffic, and data kept across down and up.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROJECT = `fsstack${process.pid}`;
const PORTS = { proxy: 0, pg: 0, redis: 0 };
let base = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function composeEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const file = process.env.STACK_ENV_FILE;
  if (file) {
    for (const line of readFileSync(path.resolve(ROOT, file), "utf8").split("\n")) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match) env[match[1]!] = match[2];
    }
  }
  return {
    ...env,
    PROXY_BIND: "127.0.0.1",
    PROXY_PORT: String(PORTS.proxy),
    STACK_PG_PORT: String(PORTS.pg),
    STACK_REDIS_PORT: String(PORTS.redis),
    DEPLOYMENT_ID: PROJECT,
    PUBLIC_URL: `http://127.0.0.1:${PORTS.proxy}`,
  };
}

function compose(...args: string[]): string {
  return execFileSync("docker-compose", ["-p", PROJECT, "-f", "docker-compose.yml", "-f", "infra/compose.stack-test.yml", ...args], {
    cwd: ROOT,
    env: composeEnv(),
    // Build and start-up output goes to the log; `ps` is read.
    stdio: ["ignore", args[0] === "ps" ? "pipe" : "inherit", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  })?.toString() ?? "";
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function api(method: string, pathname: string, body?: unknown, token?: string): Promise<{ status: number; body: { s: boolean; m: string; d: any } }> {
  const response = await fetch(`${base}/api/v2${pathname}`, {
    method,
    headers: { ...(token && { authorization: `Token ${token}` }), ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { s: boolean; m: string; d: any } };
}

async function account(name: string): Promise<string> {
  const password = "Stack-Test-Password-2026!";
  const registered = await api("POST", "/auth/register/", { username: name, email: `${name}@example.test`, password });
  expect(registered.status).toBe(201);
  const login = await api("POST", "/auth/login/", { username: name, password });
  expect(login.status).toBe(200);
  return login.body.d.token as string;
}

function serverContainers(): string[] {
  return compose("ps", "-q", "server").trim().split("\n").filter(Boolean);
}

let staff: string;
let player: string;
let challengeId: number;

beforeAll(async () => {
  PORTS.proxy = await freePort();
  PORTS.pg = await freePort();
  PORTS.redis = await freePort();
  base = `http://127.0.0.1:${PORTS.proxy}`;
  compose("build");
  compose("up", "-d", "--scale", "server=2", "--scale", "worker=2");
  await until("the stack ready through nginx", async () => (await fetch(`${base}/readyz`)).ok, 300_000);
  staff = await account("stackstaff");
  player = await account("stackplayer");
});

afterAll(() => {
  spawnSync("docker-compose", ["-p", PROJECT, "-f", "docker-compose.yml", "-f", "infra/compose.stack-test.yml", "down", "-v", "--remove-orphans"], { cwd: ROOT, env: composeEnv(), stdio: "ignore" });
  const leftover = spawnSync("docker", ["ps", "-aq", "--filter", `label=org.flagship.deployment=${PROJECT}`]).stdout.toString().trim();
  if (leftover) spawnSync("docker", ["rm", "-f", ...leftover.split("\n")], { stdio: "ignore" });
});

describe("the compose stack", () => {
  it("serves the web app and the API through nginx, with two server copies and two workers", async () => {
    expect(serverContainers()).toHaveLength(2);
    expect(compose("ps", "-q", "worker").trim().split("\n").filter(Boolean)).toHaveLength(2);
    // Each server copy runs on jemalloc (the image preloads it), and keeps it to itself; and with
    // npm start's Node flags (scripts/server-flags.mjs).
    for (const id of serverContainers()) {
      const maps = execFileSync("docker", ["exec", id, "cat", "/proc/1/maps"]).toString();
      expect(maps).toContain("libjemalloc");
      const argv = execFileSync("docker", ["exec", id, "cat", "/proc/1/cmdline"]).toString().split("\0");
      expect(argv).toEqual(expect.arrayContaining(serverNodeFlags({})));
    }
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<div id=\"root\"");
  });

  it("takes a solve and shows it on the board and to sockets on every server copy", async () => {
    const category = await api("POST", "/challenges/categories/", { name: "Stack", contained_type: "jeopardy", description: "" }, staff);
    expect(category.status).toBe(201);
    const challenge = await api("POST", "/challenges/", { category: category.body.d.id, name: "Stack One", score: 100, flag_type: "plaintext", flag_metadata: { flag: "flag{stack}" } }, staff);
    expect(challenge.status).toBe(201);
    challengeId = challenge.body.d.id;
    expect((await api("POST", "/team/create/", { name: "Stackers", password: "stack-secret" }, player)).status).toBe(201);

    // nginx starts at a random one of the copies' addresses per connection: of twelve sockets,
    // some land on each copy (all on one: one chance in 2048).
    const sockets = await Promise.all(Array.from({ length: 12 }, () => openSocket(`ws://127.0.0.1:${PORTS.proxy}/api/v2/ws/`)));
    await new Promise((r) => setTimeout(r, 500));
    const solved = await api("POST", "/challenges/submit_flag/", { challenge: challengeId, flag: "flag{stack}" }, player);
    expect(solved.body).toMatchObject({ s: true, m: "correct_flag" });
    for (const socket of sockets) await socket.waitFor((e) => e.event_code === 1 && e.challenge_id === challengeId, 10_000);
    for (const socket of sockets) socket.close();
    const board = await until("the board with the solve", async () => {
      const res = await api("GET", "/leaderboard/team/", undefined, player);
      return res.body.d.results?.find((t: { name: string; leaderboard_points: number }) => t.name === "Stackers" && t.leaderboard_points === 100);
    }, 10_000);
    expect(board).toBeTruthy();
  });

  it("deploys a challenge server through the workers and hands the team its instance", async () => {
    const challenge = await api("POST", "/challenges/", { category: (await api("GET", "/challenges/categories/", undefined, staff)).body.d[0].id, name: "Stack Box", score: 50, flag_metadata: { flag: "flag{box}" } }, staff);
    const job = await api("POST", "/challengeserver/submit_job/", {
      challenge_id: challenge.body.d.id,
      job_spec: { name: "stack-box", port: 8000, replicas: 2, resources: { memory: 33554432, cpus: 0.1 }, image: "flagship-test/banner:2" },
    }, staff);
    expect(job.status).toBe(201);
    const instance = await until("an instance", async () => {
      const res = await api("GET", "/challengeserver/instance/stack-box/", undefined, player);
      return res.status === 200 ? (res.body.d as { ip: string; port: number }) : null;
    });
    expect(instance.ip).toBe("127.0.0.1");
    const banner = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: "127.0.0.1", port: instance.port });
      socket.once("data", (chunk) => {
        socket.destroy();
        resolve(chunk.toString());
      });
      socket.once("error", reject);
    });
    expect(banner).toMatch(/^flagship-banner /);
  });

  it("scales to three server copies and three workers while reads keep answering", async () => {
    let failures = 0;
    let served = 0;
    let stop = false;
    const traffic = (async () => {
      while (!stop && served < 2000) {
        const res = await fetch(`${base}/api/v2/challenges/categories/`, { headers: { authorization: `Token ${player}` } }).catch(() => null);
        if (res?.ok) served++;
        else failures++;
      }
    })();
    compose("up", "-d", "--no-recreate", "--scale", "server=3", "--scale", "worker=3");
    await until("three ready server copies", async () => serverContainers().length === 3, 60_000);
    await new Promise((r) => setTimeout(r, 6000));
    stop = true;
    await traffic;
    expect(served).toBeGreaterThan(0);
    expect(failures).toBe(0);
  });

  it("loses no acknowledged write when a server copy is killed mid-traffic", async () => {
    const acknowledged: number[] = [];
    let stop = false;
    let n = 0;
    // The announcement list shows the latest 200, so the writes stay below that
    // count; paced at one per 30 ms or slower, they are still going when the copy
    // is killed after 1.5 s, however fast the machine.
    const writes = (async () => {
      while (!stop && n < 190) {
        n++;
        const paced = new Promise((r) => setTimeout(r, 30));
        const res = await api("POST", "/announcements/", { title: `Stack ${n}`, body: "kept" }, staff).catch(() => null);
        if (res?.status === 201) acknowledged.push(res.body.d.id as number);
        await paced;
      }
    })();
    await new Promise((r) => setTimeout(r, 1500));
    const beforeKill = acknowledged.length;
    execFileSync("docker", ["kill", serverContainers()[0]!], { stdio: "ignore" });
    await new Promise((r) => setTimeout(r, 4000));
    stop = true;
    await writes;
    expect(beforeKill).toBeGreaterThan(10);
    // Writes went on being acknowledged by the remaining copies after the kill.
    expect(acknowledged.length).toBeGreaterThan(beforeKill);
    const listed = await api("GET", "/announcements/", undefined, player);
    const ids = new Set((listed.body.d as { id: number }[]).map((a) => a.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    // Reads keep answering through the remaining copies.
    for (let i = 0; i < 20; i++) expect((await fetch(`${base}/api/v2/stats/version/`)).ok).toBe(true);
  });

  it("keeps its data across down and up", async () => {
    compose("down");
    compose("up", "-d", "--scale", "server=2", "--scale", "worker=1");
    await until("the stack ready again", async () => (await fetch(`${base}/readyz`)).ok, 300_000);
    const login = await api("POST", "/auth/login/", { username: "stackplayer", password: "Stack-Test-Password-2026!" });
    expect(login.status).toBe(200);
    const board = await api("GET", "/leaderboard/team/", undefined, login.body.d.token);
    expect(board.body.d.results.find((t: { name: string }) => t.name === "Stackers")).toMatchObject({ leaderboard_points: 100 });
  });
});
