import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { createChallengeServerTier } from "@flagship/api";
import { callerFor, createCategory, createChallenge, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld } from "@flagship/api/testing";
import type Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from "vitest";
import { LABELS } from "../apps/worker/src/challenge-servers/deployer.ts";
import { BANNER_IMAGE, BANNER_PORT, buildBannerImage, readBanner } from "../apps/worker/src/challenge-servers/test-image.ts";
import { createNamespaceHosts, type NamespaceHost, type NamespaceHosts } from "./testing/namespace-hosts.ts";
import { startWorkerProcess, type WorkerProcess } from "./testing/worker-process.ts";

/**
 * The worker tier on two Docker hosts, for real: two network namespaces made here, each with a
 * dockerd of its own and an address on a bridge, and real worker processes (`npm run worker`'s
 * bundle) pointed at them, against a real PostgreSQL and Redis, driven through the server's tRPC
 * procedures. First plain Docker with one worker per host (spreading, a host lost and back), then
 * the two engines as one Swarm (spreading over the nodes, a node drained).
 *
 * testcontainers is not used here although the design names it for tests that start containers:
 * the containers under test are made by the workers, not by the test, and the engines are dockerd
 * processes in namespaces, not containers (a Docker-in-Docker image would have to be pulled).
 * Nor could it address the two engines from one test: it resolves one container runtime per
 * process (from DOCKER_HOST or its properties file, at first use) and keeps it.
 *
 * Needs root (namespaces, a bridge, an iptables rule, dockerd); infra/test-multihost.sh skips it
 * otherwise. Instances are published on the namespaces' addresses only.
 */

const RUN = `mh${process.pid}`;
const DEPLOYMENT = `mh${process.pid}`;
const SWARM_DEPLOYMENT = `mhs${process.pid}`;
/** Whole-run time limits: a lost host's instances must be back within this. */
const RECREATE_WITHIN_MS = 30_000;

let net: NamespaceHosts;
let world: TestWorld;
let staff: TestUser;
let categoryId: number;
const workers: WorkerProcess[] = [];
let jobSeq = 0;

function hostOf(address: string): NamespaceHost {
  const host = net.hosts.find((h) => h.address === address);
  if (!host) throw new Error(`no test host has the address ${address}`);
  return host;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function startWorker(host: NamespaceHost, id: string, env: Record<string, string> = {}): WorkerProcess {
  const worker = startWorkerProcess({
    id,
    log: path.join(host.dir, `${id}.log`),
    env: {
      DATABASE_URL: world.database.url,
      REDIS_URL: inject("redisUrl"),
      DOCKER_HOST: host.dockerHost,
      DEPLOYMENT_ID: DEPLOYMENT,
      WORKER_CAPACITY: "1",
      INSTANCE_BIND: host.address,
      INSTANCE_HOST: host.address,
      INSTANCE_PROBE_HOST: host.address,
      INSTANCE_NETWORK_SPARES: "2",
      CHALLENGE_BACKEND: "docker",
      ...env,
    },
  });
  workers.push(worker);
  return worker;
}

/** On a failing test, what the workers and engines said last. */
function reportOnFailure(): void {
  onTestFailed(() => {
    for (const worker of workers) console.error(`--- worker ${worker.id} (${worker.log})\n${worker.tail()}`);
  });
}

async function ourContainers(host: NamespaceHost, deployment = DEPLOYMENT, filter: Record<string, string> = {}): Promise<Docker.ContainerInfo[]> {
  const labels = [`${LABELS.deployment}=${deployment}`, ...Object.entries(filter).map(([k, v]) => `${k}=${v}`)];
  return host.docker.listContainers({ all: true, filters: { label: labels } });
}

function jobName(kind: string): string {
  return `${kind}-${RUN}-${++jobSeq}`;
}

async function submit(name: string, spec: Record<string, unknown>): Promise<number> {
  const challenge = await createChallenge(world, categoryId);
  const job = await callerFor(world, staff).challengeServers.submitJob({
    challenge_id: challenge.id,
    job_spec: { name, port: BANNER_PORT, image: BANNER_IMAGE, replicas: 1, resources: { memory: 32 * 1024 * 1024, cpus: 0.1 }, ...spec },
  });
  return job.id;
}

function instanceOf(team: TestTeam, name: string) {
  return callerFor(world, team.members[0]!).challengeServers.instance({ name });
}

/** The team's instance, once it answers with a banner from `address` (any test host when omitted). */
async function reachable(team: TestTeam, name: string, address?: string, timeoutMs = 30_000) {
  return until(`${name}'s instance for team ${team.id}${address ? ` on ${address}` : ""}`, async () => {
    const view = await instanceOf(team, name);
    // Thrown, not returned: a timeout then says what the team was last given.
    if (address !== undefined && view.ip !== address) throw new Error(`the team was given ${view.ip}:${view.port}`);
    return (await readBanner(view.ip, view.port)).startsWith("flagship-banner ") ? view : null;
  }, timeoutMs);
}

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error("The multi-host test needs root: it makes network namespaces, a bridge, an iptables rule and two dockerds.");
  net = await createNamespaceHosts(2);
  // Each engine gets the challenge image from a local busybox rootfs: nothing is pulled.
  for (const host of net.hosts) buildBannerImage(BANNER_IMAGE, { dockerHost: host.dockerHost });
  world = await createTestWorld();
  // The server's side of the tier, with BullMQ's default prefix, as the worker processes use.
  world.services.challengeServers = createChallengeServerTier({ redisUrl: inject("redisUrl"), log: { info() {}, warn() {}, error() {} } });
  staff = await createUser(world, { isStaff: true });
  categoryId = (await createCategory(world)).id;
}, 300_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await world?.services.challengeServers?.close();
  await world?.close();
  await net?.cleanup();
}, 300_000);

describe("plain Docker, one worker per host", () => {
  let lost: NamespaceHost;
  let live: NamespaceHost;
  let workerOf: Map<NamespaceHost, WorkerProcess>;
  let sharedName: string;
  let dedicatedName: string;
  let teams: TestTeam[];
  /** Instance rows, and containers, the lost host ran when it went. */
  let lostRows: number[] = [];
  let lostContainers: string[] = [];
  let lostAt = 0;

  beforeAll(async () => {
    const [h1, h2] = net.hosts as [NamespaceHost, NamespaceHost];
    workerOf = new Map([
      [h1, startWorker(h1, `${RUN}-w1`)],
      [h2, startWorker(h2, `${RUN}-w2`)],
    ]);
    await until("both workers live", async () => (await callerFor(world, staff).challengeServers.workers()).filter((w) => w.id.startsWith(RUN)).length === 2, 60_000);
    teams = await Promise.all(Array.from({ length: 3 }, () => createTeamWith(world, 1)));
  }, 120_000);

  it("spreads a shared job's replicas one per host, and players get instances on both", async () => {
    reportOnFailure();
    sharedName = jobName("web");
    const jobId = await submit(sharedName, { replicas: 2 });
    const rows = await until("2 healthy replicas", async () => {
      const found = await world.services.db.challengeServerInstance.findMany({ where: { jobId, status: "healthy" } });
      return found.length === 2 ? found : null;
    }, 60_000);
    expect(new Set(rows.map((r) => r.workerId))).toEqual(new Set([...workerOf.values()].map((w) => w.id)));
    expect(new Set(rows.map((r) => r.host))).toEqual(new Set(net.hosts.map((h) => h.address)));
    for (const host of net.hosts) expect(await ourContainers(host, DEPLOYMENT, { [LABELS.job]: String(jobId) })).toHaveLength(1);
    // Two teams, each pinned to the replica serving the fewest teams: one on each host.
    const first = await reachable(teams[0]!, sharedName);
    const second = await reachable(teams[1]!, sharedName);
    expect(new Set([first.ip, second.ip])).toEqual(new Set(net.hosts.map((h) => h.address)));
  }, 120_000);

  it("runs a team's dedicated instance on a host, reachable at that host's address", async () => {
    reportOnFailure();
    dedicatedName = jobName("pwn");
    await submit(dedicatedName, { dedicated: true, lifetime: 1800 });
    const view = await reachable(teams[2]!, dedicatedName);
    // The host that runs both a replica and this dedicated instance is the one lost below.
    lost = hostOf(view.ip);
    live = net.hosts.find((h) => h !== lost)!;
  }, 60_000);

  it("moves the team whose host is lost to the replica on the other host within seconds", async () => {
    reportOnFailure();
    const lostWorker = workerOf.get(lost)!.id;
    lostRows = (await world.services.db.challengeServerInstance.findMany({ where: { workerId: lostWorker }, select: { id: true } })).map((r) => r.id);
    expect(lostRows.length).toBeGreaterThanOrEqual(2);
    lostContainers = (await ourContainers(lost)).map((c) => c.Id);
    const pins = await world.services.db.teamInstance.findMany({ where: { teamId: { in: [teams[0]!.id, teams[1]!.id] } }, include: { instance: true } });
    const onLost = pins.find((p) => p.instance.workerId === lostWorker);
    expect(onLost).toBeDefined();
    const team = teams.find((t) => t.id === onLost!.teamId)!;

    lostAt = Date.now();
    await net.kill(lost);
    const moved = await reachable(team, sharedName, live.address, 10_000);
    console.log(`[multihost] team moved to the live replica ${((Date.now() - lostAt) / 1000).toFixed(1)} s after its host was lost`);
    expect(moved.ip).toBe(live.address);
  }, 60_000);

  it(`re-creates the lost host's instances on the other host within ${RECREATE_WITHIN_MS / 1000} s, its dedicated ones included`, async () => {
    reportOnFailure();
    const liveWorker = workerOf.get(live)!.id;
    await until("every instance of the lost host healthy on the live host", async () => {
      const rows = await world.services.db.challengeServerInstance.findMany({ where: { id: { in: lostRows } } });
      return rows.length === lostRows.length && rows.every((r) => r.workerId === liveWorker && r.status === "healthy" && r.host === live.address);
    }, Math.max(RECREATE_WITHIN_MS - (Date.now() - lostAt), 1000));
    const recreatedMs = Date.now() - lostAt;
    for (const id of lostRows) {
      const containers = await ourContainers(live, DEPLOYMENT, { [LABELS.instance]: String(id) });
      expect(containers.map((c) => c.State)).toEqual(["running"]);
    }
    // The team whose dedicated instance was on the lost host has it again, on the live host.
    await reachable(teams[2]!, dedicatedName, live.address, 5000);
    console.log(`[multihost] the lost host's ${lostRows.length} instances re-created on the other host ${(recreatedMs / 1000).toFixed(1)} s after the loss`);
    expect(recreatedMs).toBeLessThan(RECREATE_WITHIN_MS);
  }, 60_000);

  it("gives dedicated instances asked for after the loss to the live host only", async () => {
    reportOnFailure();
    // Three new teams one after another: by load alone, some would go to the lost host's worker
    // (it runs fewer instances now); a worker whose engine does not answer must take none.
    const late = await Promise.all(Array.from({ length: 3 }, () => createTeamWith(world, 1)));
    for (const team of late) {
      const view = await instanceOf(team, dedicatedName);
      expect(view.ip).toBe(live.address);
      expect(await readBanner(view.ip, view.port)).toMatch(/^flagship-banner /);
    }
    teams.push(...late);
  }, 120_000);

  it("removes the lost host's stale containers when it comes back, and every team keeps its instance", async () => {
    reportOnFailure();
    expect(lostContainers.length).toBeGreaterThan(0);
    await net.start(lost);
    // The engine comes back with the containers it had, stopped: its worker removes them.
    await until("the returned host's stale containers removed", async () => {
      const ids = new Set((await ourContainers(lost)).map((c) => c.Id));
      return lostContainers.every((id) => !ids.has(id));
    }, 60_000);
    // Nothing runs twice: the moved instances stay on the live host, with no copy on the returned one.
    for (const id of lostRows) expect(await ourContainers(lost, DEPLOYMENT, { [LABELS.instance]: String(id) })).toHaveLength(0);
    for (const team of teams) await reachable(team, team === teams[0] || team === teams[1] ? sharedName : dedicatedName);
  }, 120_000);

  it("places instances on the returned host again once its engine answers", async () => {
    reportOnFailure();
    const returned = workerOf.get(lost)!.id;
    // The worker reports that its engine answers again.
    await until("the returned host's worker placeable", async () => {
      const worker = (await callerFor(world, staff).challengeServers.workers()).find((w) => w.id === returned);
      return worker !== undefined && !worker.engine_lost;
    }, 60_000);
    // It now runs the fewest instances, so a new team's dedicated instance goes there.
    const team = await createTeamWith(world, 1);
    const view = await reachable(team, dedicatedName);
    expect(view.ip).toBe(lost.address);
  }, 90_000);

  afterAll(async () => {
    // SIGTERM, as a process manager stops a worker; then what is left on the engines goes.
    await Promise.all([...workerOf.values()].map((w) => w.stop()));
    for (const host of net.hosts) {
      for (const c of await ourContainers(host).catch(() => [])) await host.docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
    }
    await world.services.db.challengeServerJob.deleteMany();
  }, 120_000);
});

describe("Swarm across both engines", () => {
  let manager: NamespaceHost;
  let nodeHost: NamespaceHost;
  let name: string;
  let jobId: number;
  let teams: TestTeam[];

  async function tasksOf(serviceName: string) {
    return (await manager.docker.listTasks({ filters: { service: [serviceName], "desired-state": ["running"] } })) as { NodeID: string; Status: { State: string } }[];
  }

  /** The one service running a shared job's replicas, found by its labels. */
  async function serviceOf(jobId: number): Promise<string> {
    const services = (await manager.docker.listServices({ filters: { label: [`${LABELS.deployment}=${SWARM_DEPLOYMENT}`, `${LABELS.job}=${jobId}`] } })) as { Spec: { Name: string } }[];
    expect(services).toHaveLength(1);
    return services[0]!.Spec.Name;
  }

  beforeAll(async () => {
    [manager, nodeHost] = net.hosts as [NamespaceHost, NamespaceHost];
    const docker = (host: NamespaceHost, ...args: string[]) => execFileSync("docker", ["-H", host.dockerHost, ...args], { stdio: ["ignore", "pipe", "pipe"] }).toString().trim();
    docker(manager, "swarm", "init", "--advertise-addr", manager.address, "--listen-addr", `${manager.address}:2377`);
    const token = docker(manager, "swarm", "join-token", "-q", "worker");
    docker(nodeHost, "swarm", "join", "--advertise-addr", nodeHost.address, "--listen-addr", `${nodeHost.address}:2377`, "--token", token, `${manager.address}:2377`);
    await until("both nodes ready", async () => {
      const nodes = (await manager.docker.listNodes()) as { Status: { State: string } }[];
      return nodes.length === 2 && nodes.every((n) => n.Status.State === "ready");
    }, 60_000);
    // One worker for the whole Swarm, on the manager: placement is Swarm's.
    startWorker(manager, `${RUN}-swarm`, { DEPLOYMENT_ID: SWARM_DEPLOYMENT, CHALLENGE_BACKEND: "auto", INSTANCE_BIND: "0.0.0.0", WORKER_CAPACITY: "100" });
    await until("the Swarm worker live", async () => (await callerFor(world, staff).challengeServers.workers()).some((w) => w.id === `${RUN}-swarm` && w.backend === "swarm"), 60_000);
    teams = await Promise.all(Array.from({ length: 2 }, () => createTeamWith(world, 1)));
  }, 180_000);

  it("spreads a shared job's replicas over both nodes, and players get instances on both", async () => {
    reportOnFailure();
    name = jobName("swarm");
    jobId = await submit(name, { replicas: 2 });
    const rows = await until("2 healthy replicas", async () => {
      const found = await world.services.db.challengeServerInstance.findMany({ where: { jobId, status: "healthy" } });
      return found.length === 2 ? found : null;
    }, 90_000);
    expect(new Set(rows.map((r) => r.host))).toEqual(new Set(net.hosts.map((h) => h.address)));
    const service = await serviceOf(jobId);
    const nodes = new Set((await tasksOf(service)).map((t) => t.NodeID));
    expect(nodes.size).toBe(2);
    const first = await reachable(teams[0]!, name);
    const second = await reachable(teams[1]!, name);
    expect(new Set([first.ip, second.ip])).toEqual(new Set(net.hosts.map((h) => h.address)));
  }, 120_000);

  it("moves the tasks off a drained node, and its teams reach their instance again", async () => {
    reportOnFailure();
    const before = await instanceOf(teams[0]!, name);
    const drained = hostOf(before.ip);
    const other = net.hosts.find((h) => h !== drained)!;
    const nodeId = ((await drained.docker.info()) as { Swarm: { NodeID: string } }).Swarm.NodeID;
    const drainedAt = Date.now();
    execFileSync("docker", ["-H", manager.dockerHost, "node", "update", "--availability", "drain", nodeId], { stdio: "ignore" });
    const service = await serviceOf(jobId);
    await until("every task on the other node", async () => {
      const tasks = await tasksOf(service);
      return tasks.length === 2 && tasks.every((t) => t.NodeID !== nodeId && t.Status.State === "running");
    }, 60_000);
    for (const team of teams) await reachable(team, name, other.address, 60_000);
    console.log(`[multihost] teams reach their instance again ${((Date.now() - drainedAt) / 1000).toFixed(1)} s after the drain`);
    // The worker's next reconcile pass records where the tasks now run.
    await until("every instance row on the other node and healthy", async () => {
      const rows = await world.services.db.challengeServerInstance.findMany({ where: { jobId } });
      return rows.length > 0 && rows.every((r) => r.host === other.address && r.status === "healthy");
    }, 30_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    // Leaving the Swarm removes its services and their tasks; the engines go with the hosts.
    for (const host of [nodeHost, manager]) {
      if (host) spawnSync("docker", ["-H", host.dockerHost, "swarm", "leave", "--force"], { stdio: "ignore" });
    }
  }, 120_000);
});
