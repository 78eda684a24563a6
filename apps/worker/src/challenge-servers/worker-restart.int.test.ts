import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { type AuthedContext, createChallengeServerTier, getInstance, submitJob } from "@flagship/api";
import { contextFor, createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld, uniqueName } from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABELS } from "./deployer.ts";
import { BANNER_IMAGE, BANNER_PORT, buildBannerImage, readBanner } from "./test-image.ts";

/**
 * Worker processes started as operators start them (the built entry point `npm run worker`
 * runs), on the real Docker engine: SIGTERM leaves the instances running and a worker started
 * after it adopts them as they are; `npm run worker -- --drain` moves them to another worker.
 * This file runs its own redis-server, so its workers' queues are theirs alone.
 */

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const docker = new Docker();
const deployment = uniqueName("rs").toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 20);
const children = new Set<ChildProcess>();
let redis: ChildProcess;
let redisUrl: string;
let world: TestWorld;
let staff: TestUser;
let team: TestTeam;

interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(command: string, args: string[], env: Record<string, string>): Spawned {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: world.database.url,
      REDIS_URL: redisUrl,
      DEPLOYMENT_ID: deployment,
      INSTANCE_BIND: "127.0.0.1",
      INSTANCE_NETWORK_SPARES: "1",
      WORKER_RESTART_GRACE: "120",
      // The plain Docker backend whatever the engine is (a Swarm manager picks Swarm by default).
      CHALLENGE_BACKEND: "docker",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const exited = once(child, "exit").then(([code]) => {
    children.delete(child);
    return code as number | null;
  });
  return { child, output: () => text, exited };
}

/** A worker as `npm run worker` starts it: the built entry point. */
function startWorker(env: Record<string, string> = {}): Spawned {
  return run(process.execPath, ["apps/worker/dist/main.js"], env);
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function ctxOf(user: TestUser): AuthedContext {
  return contextFor(world, user) as AuthedContext;
}

async function ourContainers() {
  return docker.listContainers({ all: true, filters: { label: [`${LABELS.deployment}=${deployment}`] } });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Reads both banners every 100 ms until stopped; counts reads that failed. */
function keepReading(addresses: { ip: string; port: number }[]) {
  let stopped = false;
  let reads = 0;
  const failures: string[] = [];
  const loop = (async () => {
    const deadline = Date.now() + 120_000;
    while (!stopped && Date.now() < deadline) {
      for (const a of addresses) {
        reads++;
        await readBanner(a.ip, a.port).then(
          (banner) => (banner.startsWith("flagship-banner") ? undefined : failures.push(`${a.port}: ${banner}`)),
          (error: unknown) => failures.push(`${a.port}: ${(error as Error).message}`),
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { reads, failures };
    },
  };
}

beforeAll(async () => {
  buildBannerImage();
  execFileSync(process.execPath, ["scripts/bundle.mjs", "apps/worker"], { cwd: ROOT, stdio: "inherit" });
  const port = await freePort();
  redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await until("redis-server", () => canConnect(port), 10_000);
  redisUrl = `redis://127.0.0.1:${port}`;
  world = await createTestWorld();
  world.services.challengeServers = createChallengeServerTier({ redisUrl, log: { info() {}, warn() {}, error() {} } });
  staff = await createUser(world, { isStaff: true });
  team = await createTeamWith(world, 1);
}, 120_000);

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGKILL");
    await once(child, "exit").catch(() => undefined);
  }
  for (const c of await ourContainers()) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
  for (const n of await docker.listNetworks({ filters: { label: [`${LABELS.deployment}=${deployment}`] } })) await docker.getNetwork(n.Id).remove().catch(() => undefined);
  await world?.services.challengeServers?.close();
  await world?.close();
  redis?.kill("SIGKILL");
}, 60_000);

describe("worker processes restarted and drained", () => {
  let sharedName: string;
  let dedicatedName: string;
  let first: { shared: { ip: string; port: number }; dedicated: { ip: string; port: number } };
  let containers: Map<string, number>;
  let workerId: string;
  let restarted: Spawned;

  async function containerPorts(): Promise<Map<string, number>> {
    const list = await ourContainers();
    return new Map(list.map((c) => [c.Id, c.State === "running" ? (c.Ports.find((p) => p.PrivatePort === BANNER_PORT)?.PublicPort ?? 0) : -1]));
  }

  it("SIGTERM leaves a team's dedicated instance and a shared replica running, and the next worker adopts them: same containers, same ports, no failed read", async () => {
    const a = startWorker();
    workerId = await until("worker A's heartbeat", async () => (await world.services.db.challengeServerWorker.findFirst({ where: { id: { endsWith: `-${a.child.pid}` } } }))?.id);
    const categoryId = (await createCategory(world)).id;
    const spec = { port: BANNER_PORT, image: BANNER_IMAGE, resources: { memory: 32 * 1024 * 1024, cpus: 0.2 } };
    sharedName = uniqueName("Shared job");
    dedicatedName = uniqueName("dedicated");
    const shared = await createChallenge(world, categoryId);
    const dedicated = await createChallenge(world, categoryId);
    const player = ctxOf(team.members[0]!);
    // The first jobs of a fresh worker, their image on the engine: how long from submit_job to an address that answers.
    const submitted = Date.now();
    await submitJob(contextFor(world, staff) as never, { challenge_id: shared.id, job_spec: { ...spec, name: sharedName, replicas: 1 } });
    const sharedFirst = await until("the shared replica", () => getInstance(player, sharedName).catch(() => null)).catch(async (error: unknown) => {
      const state = { workers: await world.services.db.challengeServerWorker.findMany(), instances: await world.services.db.challengeServerInstance.findMany() };
      throw new Error(`${(error as Error).message}: ${JSON.stringify(state)} ${a.output()}`);
    });
    await readBanner(sharedFirst.ip, sharedFirst.port);
    const sharedMs = Date.now() - submitted;
    const dedicatedSubmitted = Date.now();
    await submitJob(contextFor(world, staff) as never, { challenge_id: dedicated.id, job_spec: { ...spec, name: dedicatedName, dedicated: true, lifetime: 3600 } });
    const dedicatedFirst = await getInstance(player, dedicatedName);
    await readBanner(dedicatedFirst.ip, dedicatedFirst.port);
    const dedicatedMs = Date.now() - dedicatedSubmitted;
    console.log(`first shared job reachable ${sharedMs} ms after submit_job; first dedicated instance ${dedicatedMs} ms`);
    // The goal is 10 s (BENCHMARKS.md measures it on a quiet machine); the bound here leaves room
    // for a test machine shared with other work.
    expect(sharedMs).toBeLessThan(30_000);
    expect(dedicatedMs).toBeLessThan(30_000);
    first = { shared: sharedFirst, dedicated: dedicatedFirst };
    containers = await containerPorts();
    expect(containers.size).toBe(2);

    const reader = keepReading([first.shared, first.dedicated]);
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    // The containers are still there and serving while no worker runs.
    expect(await containerPorts()).toEqual(containers);
    restarted = startWorker();
    await until("the new worker to take over worker A's instances", async () => {
      const row = await world.services.db.challengeServerWorker.findUnique({ where: { id: workerId } });
      return row && row.parkedUntil === null && Date.now() - row.lastSeen.getTime() < 5000;
    });
    // A few converge passes of the new worker: nothing is replaced.
    await new Promise((r) => setTimeout(r, 6000));
    const { reads, failures } = await reader.stop();
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(20);
    expect(await containerPorts()).toEqual(containers);
    expect(await world.services.db.challengeServerWorker.count({ where: { id: { endsWith: `-${restarted.child.pid}` } } })).toBe(0);
    const rows = await world.services.db.challengeServerInstance.findMany({ select: { workerId: true, status: true, port: true } });
    expect(rows.every((r) => r.workerId === workerId && r.status === "healthy")).toBe(true);
    expect(await getInstance(player, sharedName)).toEqual(first.shared);
    expect(await getInstance(player, dedicatedName)).toEqual(first.dedicated);
    expect(restarted.output()).not.toMatch(/"level":(50|60)/);
  }, 120_000);

  it("npm run worker -- --drain moves the instances to another worker, says when it is done, and removes what is left", async () => {
    const otherId = uniqueName("other").replace(/[^A-Za-z0-9_.-]/g, "");
    const other = startWorker({ WORKER_ID: otherId });
    await until("the other worker's heartbeat", async () => (await world.services.db.challengeServerWorker.count({ where: { id: otherId } })) === 1).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}: ${other.output()}`);
    });
    expect(restarted.child.exitCode, restarted.output()).toBeNull();
    expect(await world.services.db.challengeServerInstance.count({ where: { workerId } }), `${restarted.output()}\n${other.output()}`).toBe(2);
    const drain = run("npm", ["run", "--silent", "worker", "--", "--drain"], { WORKER_ID: workerId });
    const code = await Promise.race([drain.exited, new Promise<"late">((r) => setTimeout(() => r("late"), 90_000))]);
    expect(drain.output()).toMatch(/Draining .*2 instances to move/);
    expect(drain.output()).toMatch(/Drained: 2 instances now run on other workers/);
    expect(code).toBe(0);
    const rows = await world.services.db.challengeServerInstance.findMany({ select: { workerId: true, status: true } });
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.workerId !== workerId && r.status === "healthy")).toBe(true);
    // The drained worker's containers are gone; the new ones answer.
    const left = await ourContainers();
    expect(left.filter((c) => containers.has(c.Id))).toEqual([]);
    const player = ctxOf(team.members[0]!);
    for (const name of [sharedName, dedicatedName]) {
      const instance = await getInstance(player, name);
      expect(await readBanner(instance.ip, instance.port)).toMatch(/^flagship-banner /);
    }
    // The drained worker takes no new placements.
    const worker = await world.services.db.challengeServerWorker.findUniqueOrThrow({ where: { id: workerId } });
    expect(worker.draining).toBe(true);
    other.child.kill("SIGTERM");
    restarted.child.kill("SIGTERM");
    await Promise.all([other.exited, restarted.exited]);
  }, 120_000);
});
