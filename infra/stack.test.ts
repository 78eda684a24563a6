import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DockerComposeEnvironment, type StartedDockerComposeEnvironment, Wait } from "testcontainers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { openSocket } from "../apps/server/src/realtime/ws-client.ts";
import { JEMALLOC_CONF, serverNodeFlags } from "../scripts/server-flags.mjs";

/**
 * The production stack as an operator runs it (docker-compose.yml, the images built from the
 * Dockerfiles), driven through nginx on 127.0.0.1 only: accounts, a solve seen on the board and
 * by sockets on both server copies, a challenge server deployed by the workers, scaling while
 * traffic runs, a server copy killed mid-traffic, and data kept across down and up.
 *
 * testcontainers brings the stack up and down (its compose environment, over Debian's
 * docker-compose, with a wait for each container: PostgreSQL, Redis and the server copies by their
 * health checks, nginx by an answer from /readyz) and removes it; its reaper is off
 * (TESTCONTAINERS_RYUK_DISABLED, set in infra/stack.vitest.config.ts), since its image cannot be
 * pulled here. Operations the environment has no call for (scaling, `ps`, the rolling upgrade)
 * go to docker-compose directly, under the same project.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROJECT = `fsstack${process.pid}`;
// The app images get this run's own tag: other runs on the same engine build theirs meanwhile.
const TAG = PROJECT;
const COMPOSE_FILES = ["-p", PROJECT, "-f", "docker-compose.yml", "-f", "infra/compose.stack-test.yml"];
const PORTS = { proxy: 0, pg: 0, redis: 0, prometheus: 0 };
/** Where the test tells Prometheus what to scrape (file_sd: infra/prometheus/stack-test.yml). */
let targetsDir = "";
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
    STACK_PROMETHEUS_PORT: String(PORTS.prometheus),
    STACK_PROMETHEUS_TARGETS: targetsDir,
    DEPLOYMENT_ID: PROJECT,
    FLAGSHIP_TAG: TAG,
    PUBLIC_URL: `http://127.0.0.1:${PORTS.proxy}`,
  };
}

/**
 * The stack as testcontainers' compose environment: the same files and project as compose() below,
 * `up` with the given scale. docker-compose 1.x names containers `<project>_<service>_<n>`, and
 * testcontainers keeps that whole name for them (it strips only compose 2's `<project>-`).
 */
function stackEnvironment(scale: { server: number; worker: number }): DockerComposeEnvironment {
  const name = (service: string, n = 1) => `${PROJECT}_${service}_${n}`;
  const environment = new DockerComposeEnvironment(ROOT, ["docker-compose.yml", "infra/compose.stack-test.yml"])
    .withProjectName(PROJECT)
    .withEnvironment(composeEnv() as Record<string, string>)
    .withClientOptions({ executable: { standalone: true }, commandOptions: ["--scale", `server=${scale.server}`, "--scale", `worker=${scale.worker}`] })
    .withStartupTimeout(300_000)
    .withWaitStrategy(name("postgres"), Wait.forHealthCheck())
    .withWaitStrategy(name("redis"), Wait.forHealthCheck())
    .withWaitStrategy(name("proxy"), Wait.forHttp("/readyz", 80).forStatusCode(200));
  for (let n = 1; n <= scale.server; n++) environment.withWaitStrategy(name("server", n), Wait.forHealthCheck());
  return environment;
}

let stack: StartedDockerComposeEnvironment | undefined;

function compose(...args: string[]): string {
  return execFileSync("docker-compose", [...COMPOSE_FILES, ...args], {
    cwd: ROOT,
    env: composeEnv(),
    // Build and start-up output goes to the log; `ps` is read.
    stdio: ["ignore", args[0] === "ps" ? "pipe" : "inherit", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  })?.toString() ?? "";
}

/** Polls until `probe` gives a value; on timeout, `explain` (when given) says what the stack looked like. */
async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 120_000, explain?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${explain ? `\n${explain()}` : ""}`);
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

/**
 * A call that the server may answer 429 when its password-hashing pool is full (a busy machine):
 * tried again after Retry-After, as the web app does.
 */
async function hashing(method: string, pathname: string, body: unknown): Promise<Awaited<ReturnType<typeof api>>> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${base}/api/v2${pathname}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const parsed = { status: response.status, body: (await response.json()) as { s: boolean; m: string; d: any } };
    if (response.status !== 429 || attempt === 30) return parsed;
    await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get("retry-after") ?? 1)));
  }
}

async function account(name: string): Promise<string> {
  const password = "Stack-Test-Password-2026!";
  const registered = await hashing("POST", "/auth/register/", { username: name, email: `${name}@example.test`, password });
  expect(registered.status).toBe(201);
  const login = await hashing("POST", "/auth/login/", { username: name, password });
  expect(login.status).toBe(200);
  return login.body.d.token as string;
}

function serverContainers(): string[] {
  return compose("ps", "-q", "server").trim().split("\n").filter(Boolean);
}

/** The running workers' containers (compose lists a stopped one too, which has no environment to read). */
function workerContainers(): string[] {
  const ids = compose("ps", "-q", "worker").trim().split("\n").filter(Boolean);
  return ids.filter((id) => execFileSync("docker", ["inspect", "-f", "{{.State.Running}}", id]).toString().trim() === "true");
}

/**
 * The loopback address of a worker's /metrics: the port the system gave it (METRICS_PORT=0 on the
 * host's network, infra/compose.stack-test.yml), as its log since its last start names it; throws
 * until it does.
 */
function workerMetricsTarget(id: string): string {
  const startedAt = execFileSync("docker", ["inspect", "-f", "{{.State.StartedAt}}", id]).toString().trim();
  const log = execFileSync("docker", ["logs", "--since", startedAt, id], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 }).toString();
  const port = [...log.matchAll(/"metricsPort":(\d+)/g)].at(-1)?.[1];
  if (!port) throw new Error(`worker ${id} has not named its metrics port yet`);
  return `127.0.0.1:${port}`;
}

/**
 * What the challenge-server tier looked like, for a test that waited on it in vain: the last
 * answer, the workers' and instances' rows, the instance containers and each worker's last log lines.
 */
function tierReport(lastAnswer: unknown): string {
  const run = (args: string[]) => {
    const out = spawnSync("docker", args, { maxBuffer: 16 * 1024 * 1024 });
    return `${out.stdout?.toString() ?? ""}${out.stderr?.toString() ?? ""}`.trim();
  };
  const postgres = compose("ps", "-q", "postgres").trim();
  const sql = [
    "SELECT id, last_seen, now() AS now, draining, engine_lost_at, parked_until, capacity FROM challenge_server_workers",
    "SELECT id, job_id, worker_id, status, port, host, error, revision, updated_at FROM challenge_server_instances",
    "SELECT id, name, generation, error FROM challenge_server_jobs",
  ];
  const parts = [`last answer: ${JSON.stringify(lastAnswer)}`];
  for (const query of sql) parts.push(run(["exec", postgres, "psql", "-U", "flagship", "-d", "flagship", "-c", query]));
  parts.push(run(["ps", "-a", "--filter", `label=org.flagship.deployment=${PROJECT}`, "--format", "{{.Names}} {{.Status}} {{.Ports}}"]));
  for (const id of compose("ps", "-q", "worker").trim().split("\n").filter(Boolean)) {
    parts.push(`worker ${id.slice(0, 12)}:\n${run(["logs", "--tail", "30", id])}`);
  }
  return parts.join("\n");
}

/**
 * Tells Prometheus the /metrics of every running server copy (its 9091 published on loopback) and
 * worker, plus `keep` (a stopped worker's, so that its silence shows); Prometheus reads the files
 * again within seconds. Written whole and renamed, so it never reads half a file.
 */
function writeTargets(keep: string[] = []): { server: string[]; worker: string[] } {
  const server = serverContainers().map((id) => execFileSync("docker", ["port", id, "9091/tcp"]).toString().trim().split("\n")[0]!);
  const worker = [...workerContainers().map(workerMetricsTarget), ...keep];
  for (const [job, targets] of Object.entries({ server, worker })) {
    const file = path.join(targetsDir, `${job}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify([{ targets }]));
    chmodSync(`${file}.tmp`, 0o644);
    renameSync(`${file}.tmp`, file);
  }
  return { server, worker };
}

async function prometheus<T>(pathname: string): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${PORTS.prometheus}${pathname}`);
  if (!response.ok) throw new Error(`Prometheus answered ${response.status} for ${pathname}`);
  return ((await response.json()) as { data: T }).data;
}

interface PromTarget {
  labels: { job: string; instance: string };
  health: "up" | "down" | "unknown";
}

let staff: string;
let player: string;
let challengeId: number;

beforeAll(async () => {
  PORTS.proxy = await freePort();
  PORTS.pg = await freePort();
  PORTS.redis = await freePort();
  PORTS.prometheus = await freePort();
  targetsDir = mkdtempSync(path.join(os.tmpdir(), "flagship-stack-targets-"));
  // Read by Prometheus' own user in its container.
  chmodSync(targetsDir, 0o755);
  // Nothing to scrape until the stack is up (writeTargets then).
  for (const job of ["server", "worker"]) writeFileSync(path.join(targetsDir, `${job}.json`), "[]", { mode: 0o644 });
  base = `http://127.0.0.1:${PORTS.proxy}`;
  compose("build");
  stack = await stackEnvironment({ server: 2, worker: 2 }).up();
  expect((await fetch(`${base}/readyz`)).ok).toBe(true);
  staff = await account("stackstaff");
  player = await account("stackplayer");
});

afterAll(async () => {
  await stack?.down({ removeVolumes: true }).catch(() => {});
  // What the environment did not start (copies added by scaling or the rolling upgrade) goes too.
  spawnSync("docker-compose", [...COMPOSE_FILES, "down", "-v", "--remove-orphans"], { cwd: ROOT, env: composeEnv(), stdio: "ignore" });
  const leftover = spawnSync("docker", ["ps", "-aq", "--filter", `label=org.flagship.deployment=${PROJECT}`]).stdout.toString().trim();
  if (leftover) spawnSync("docker", ["rm", "-f", ...leftover.split("\n")], { stdio: "ignore" });
  spawnSync("docker", ["rmi", `flagship-server:${TAG}`, `flagship-server:${TAG}-next`, `flagship-worker:${TAG}`], { stdio: "ignore" });
  if (targetsDir) rmSync(targetsDir, { recursive: true, force: true });
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
      // With npm start's jemalloc settings, without which every login faults a hash's 19 MiB in again.
      const environ = execFileSync("docker", ["exec", id, "cat", "/proc/1/environ"]).toString().split("\0");
      expect(environ).toContain(`MALLOC_CONF=${JEMALLOC_CONF}`);
      const argv = execFileSync("docker", ["exec", id, "cat", "/proc/1/cmdline"]).toString().split("\0");
      expect(argv).toEqual(expect.arrayContaining(serverNodeFlags({})));
    }
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    const home = await page.text();
    expect(home).toContain("<div id=\"root\"");
    // Drawn by the image's drawing threads, with the data it shows; a player's page for the player
    // (within a copy's draw budget: a copy's first draws, its renderer still cold, may spend a
    // second's budget, and the page is then the static shell until the next second).
    expect(home).toContain('id="flagship-ssr"');
    await expect
      .poll(
        async () => {
          const board = await fetch(`${base}/leaderboard`, { headers: { cookie: `flagship.session=${player}` } });
          return board.status === 200 && (await board.text()).includes('"signedIn":true');
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe(true);
  });

  it("has Prometheus scrape every server copy and worker, with /metrics never on the public port", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    // Each worker names the port it was given once it listens: the targets are read once both have.
    await until("both workers serving /metrics", async () => {
      const ids = workerContainers();
      return ids.length === 2 && ids.every((id) => execFileSync("docker", ["inspect", "-f", "{{.State.Running}}", id]).toString().trim() === "true") && new Set(ids.map(workerMetricsTarget)).size === 2;
    });
    const written = writeTargets();
    expect(written.server).toHaveLength(2);
    expect(written.worker).toHaveLength(2);
    await until("every target up", async () => {
      const { activeTargets } = await prometheus<{ activeTargets: PromTarget[] }>("/api/v1/targets");
      const up = (job: string) => activeTargets.filter((t) => t.labels.job === job && t.health === "up").map((t) => t.labels.instance).sort();
      return JSON.stringify(up("server")) === JSON.stringify([...written.server].sort()) && JSON.stringify(up("worker")) === JSON.stringify([...written.worker].sort());
    });
    // The copies' own numbers arrive: one build_info per copy, the workers' queues.
    const builds = await prometheus<{ result: { value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent("count(flagship_build_info)")}`);
    expect(builds.result[0]?.value[1]).toBe("2");
    const queues = await prometheus<{ result: unknown[] }>(`/api/v1/query?query=${encodeURIComponent('flagship_queue_jobs{queue="flagship-challenge-servers",state="waiting"}')}`);
    expect(queues.result).toHaveLength(2);
  });

  it("fires FlagshipWorkerDown when a worker stops, and takes the worker back when it returns", async () => {
    // A worker that is running and answering on its metrics port now.
    const { id, target } = await until("a worker serving /metrics", async () => {
      for (const candidate of workerContainers()) {
        const address = workerMetricsTarget(candidate);
        if ((await fetch(`http://${address}/metrics`)).ok) return { id: candidate, target: address };
      }
      return null;
    });
    execFileSync("docker", ["stop", id], { stdio: "ignore" });
    writeTargets([target]);
    // The rule waits a minute of silence (scraped and evaluated every 5 s here).
    const alert = await until(
      "FlagshipWorkerDown firing",
      async () => {
        const { alerts } = await prometheus<{ alerts: { labels: Record<string, string>; state: string }[] }>("/api/v1/alerts");
        return alerts.find((a) => a.labels.alertname === "FlagshipWorkerDown" && a.state === "firing") ?? null;
      },
      180_000,
    );
    expect(alert.labels).toMatchObject({ instance: target, job: "worker", severity: "page" });
    execFileSync("docker", ["start", id], { stdio: "ignore" });
    await until("the worker back", async () => workerContainers().length === 2 && workerMetricsTarget(id) !== "");
    const back = writeTargets();
    await until("its target up again", async () => {
      const { activeTargets } = await prometheus<{ activeTargets: PromTarget[] }>("/api/v1/targets");
      return back.worker.every((instance) => activeTargets.some((t) => t.labels.instance === instance && t.health === "up"));
    });
  }, 300_000);

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
    let last: unknown = "no answer yet";
    const instance = await until(
      "an instance",
      async () => {
        const res = await api("GET", "/challengeserver/instance/stack-box/", undefined, player).catch((error: Error) => ({ status: 0, body: error.message }));
        last = res;
        return res.status === 200 ? ((res.body as { d: { ip: string; port: number } }).d) : null;
      },
      120_000,
      () => tierReport(last),
    );
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

  it("upgrades the server copies one at a time while 50 players read, submit and hold websockets: no failed request, every socket back, every write kept", async () => {
    const PLAYERS = 50;
    const CHALLENGES = 6;
    const categoryId = (await api("GET", "/challenges/categories/", undefined, staff)).body.d[0].id as number;
    const challenges: number[] = [];
    for (let c = 0; c < CHALLENGES; c++) {
      const created = await api("POST", "/challenges/", { category: categoryId, name: `Rolling ${c}`, score: 100, flag_type: "plaintext", flag_metadata: { flag: `flag{rolling-${c}}` } }, staff);
      expect(created.status).toBe(201);
      challenges.push(created.body.d.id as number);
    }
    // Accounts two at a time: each is two password hashes on a busy machine.
    const tokens: string[] = [];
    for (let i = 0; i < PLAYERS; i += 2) {
      tokens.push(...(await Promise.all(Array.from({ length: Math.min(2, PLAYERS - i) }, (_, k) => account(`roller${i + k}`)))));
    }
    for (const [i, token] of tokens.entries()) expect((await api("POST", "/team/create/", { name: `Rollers ${i}`, password: "rolling-secret" }, token)).status).toBe(201);

    const failures: string[] = [];
    let served = 0;
    let stop = false;
    let socketsDone = false;
    const deadline = Date.now() + 10 * 60_000;

    // Each player holds a websocket and, like the web app, opens a new one when it closes.
    interface Held {
      opens: number;
      connectFailures: number;
      events: Record<string, unknown>[];
      socket: WebSocket | null;
    }
    const held: Held[] = tokens.map(() => ({ opens: 0, connectFailures: 0, events: [], socket: null }));
    const connect = (h: Held) => {
      const socket = new WebSocket(`ws://127.0.0.1:${PORTS.proxy}/api/v2/ws/`);
      h.socket = socket;
      let opened = false;
      socket.on("open", () => {
        opened = true;
        h.opens++;
      });
      socket.on("message", (raw) => h.events.push(JSON.parse(raw.toString()) as Record<string, unknown>));
      socket.on("error", () => {});
      socket.on("close", () => {
        if (socketsDone) return;
        if (!opened) {
          h.connectFailures++;
          failures.push("websocket connection refused");
        }
        setTimeout(() => connect(h), 200 + Math.random() * 300);
      });
    };
    for (const h of held) connect(h);
    await until("every player's socket open", async () => held.every((h) => h.opens === 1), 30_000);

    const solved = tokens.map(() => new Set<number>());
    const wrong = tokens.map(() => 0);
    const request = async (what: string, run: () => Promise<Response>, check: (body: { s: boolean; m: string; d: any }) => boolean) => {
      try {
        const res = await run();
        const body = (await res.json()) as { s: boolean; m: string; d: any };
        if (res.ok && check(body)) served++;
        else failures.push(`${what}: ${res.status} ${body.m}`);
        return body;
      } catch (error) {
        failures.push(`${what}: ${(error as Error).message}`);
        return null;
      }
    };
    const submit = (token: string, challenge: number, flag: string) =>
      request("submit", () => fetch(`${base}/api/v2/challenges/submit_flag/`, { method: "POST", headers: { authorization: `Token ${token}`, "content-type": "application/json" }, body: JSON.stringify({ challenge, flag }) }), (b) => b.s && (b.m === "correct_flag" || b.m === "incorrect_flag"));
    const players = tokens.map(async (token, p) => {
      for (let round = 0; !stop && Date.now() < deadline; round++) {
        const paced = new Promise((r) => setTimeout(r, 500 + Math.random() * 400));
        await request("read", () => fetch(`${base}/api/v2/challenges/categories/`, { headers: { authorization: `Token ${token}` } }), (b) => b.s && Array.isArray(b.d));
        // A wrong flag, then the right one, for the next challenge the player has not solved.
        const next = solved[p]!.size;
        if (round % 4 === 1 && next < CHALLENGES) {
          const answer = await submit(token, challenges[next]!, "flag{not-it}");
          if (answer?.m === "incorrect_flag") wrong[p]!++;
        } else if (round % 4 === 3 && next < CHALLENGES) {
          const answer = await submit(token, challenges[next]!, `flag{rolling-${next}}`);
          if (answer?.m === "correct_flag") solved[p]!.add(challenges[next]!);
        }
        await paced;
      }
    });

    try {
      await rollAndCheck();
    } finally {
      stop = true;
      socketsDone = true;
      for (const h of held) h.socket?.close();
    }

    async function rollAndCheck() {
      const before = serverContainers();
      expect(before).toHaveLength(3);
      // The new release: the same build under a new tag, which compose only gives new containers.
      execFileSync("docker", ["tag", `flagship-server:${TAG}`, `flagship-server:${TAG}-next`]);
      await new Promise((r) => setTimeout(r, 3000));
      const upgrade = spawn("bash", ["infra/rolling-upgrade.sh", ...COMPOSE_FILES], {
        cwd: ROOT,
        env: { ...composeEnv(), FLAGSHIP_TAG: `${TAG}-next`, COMPOSE: "docker-compose" },
        stdio: ["ignore", "inherit", "inherit"],
      });
      const code = await new Promise<number | null>((resolve) => upgrade.once("exit", (exitCode) => resolve(exitCode)));
      expect(code).toBe(0);
      await new Promise((r) => setTimeout(r, 3000));
      stop = true;
      await Promise.all(players);

      // Every copy is new, on the new image, and as many as before.
      const after = serverContainers();
      expect(after).toHaveLength(3);
      expect(after.filter((id) => before.includes(id))).toEqual([]);
      for (const id of after) expect(execFileSync("docker", ["inspect", "-f", "{{.Config.Image}}", id]).toString().trim()).toBe(`flagship-server:${TAG}-next`);

      expect(served).toBeGreaterThan(PLAYERS * 10);
      expect(failures).toEqual([]);
      // Every socket was told to reconnect by its copy, and is connected again to a new one: an
      // announcement made now reaches all of them.
      expect(held.filter((h) => h.opens < 2)).toEqual([]);
      const announced = await api("POST", "/announcements/", { title: "Upgraded", body: "every copy is new" }, staff);
      expect(announced.status).toBe(201);
      await until("the announcement on every player's socket", async () => held.every((h) => h.events.some((e) => e.event_code === 5 && e.id === announced.body.d.id)), 20_000);

      // Every acknowledged write is there: each player's solves and wrong flags.
      for (const [p, token] of tokens.entries()) {
        const self = await api("GET", "/member/self/", undefined, token);
        expect(new Set((self.body.d.solves as { challenge: number }[]).map((solve) => solve.challenge))).toEqual(solved[p]);
        expect(self.body.d.incorrect_solves).toBe(wrong[p]);
      }
      expect(solved.reduce((sum, set) => sum + set.size, 0)).toBeGreaterThan(PLAYERS);
      console.log(`rolling upgrade: ${served} requests answered, ${failures.length} failed, ${held.reduce((n, h) => n + h.opens - 1, 0)} socket reconnections`);
    }
  }, 15 * 60_000);

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
    // Down without the volumes, then up again: the same project, so the same named volumes.
    await stack!.down({ removeVolumes: false });
    compose("down", "--remove-orphans");
    stack = await stackEnvironment({ server: 2, worker: 1 }).up();
    expect((await fetch(`${base}/readyz`)).ok).toBe(true);
    const login = await api("POST", "/auth/login/", { username: "stackplayer", password: "Stack-Test-Password-2026!" });
    expect(login.status).toBe(200);
    const board = await api("GET", "/leaderboard/team/", undefined, login.body.d.token);
    expect(board.body.d.results.find((t: { name: string }) => t.name === "Stackers")).toMatchObject({ leaderboard_points: 100 });
  });
});
