import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type AuthedContext, getInstance, getTeamFlag, listJobs, reconcile, removeJob, resetInstance, submitFlag, submitJob } from "@flagship/api";
import { contextFor, createChallenge, createTeamWith, type TestTeam, type TestUser, uniqueName } from "@flagship/api/testing";
import { AppError, jobEngineKey } from "@flagship/shared";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABELS } from "./deployer.ts";
import type { RunningTier } from "./runtime.ts";
import { BANNER_IMAGE, BANNER_PORT, readBanner } from "./test-image.ts";
import { useTierFixture } from "./tier-fixture.ts";

/**
 * The worker tier against the real Docker engine of this machine, with an image built locally
 * from busybox: deploy, hand out, pin, reset, replace, fail over, expire and tear down. Instances
 * are published on 127.0.0.1 only.
 */

/** Spare networks each test worker keeps ready for dedicated instances. */
const SPARES = 4;
const { docker, world, staff, categoryId, deployment, running, startWorker, ourContainers } = await useTierFixture("t", { retryFailedMs: 1000, networkSpares: SPARES });
let teams: TestTeam[];

function ctxOf(user: TestUser): AuthedContext {
  return contextFor(world, user) as AuthedContext;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The network a container runs on: its own, with nothing else on it. */
async function networkOf(containerId: string) {
  const info = await docker.getContainer(containerId).inspect();
  const network = (await docker.getNetwork(info.HostConfig.NetworkMode!).inspect()) as { Name: string; Labels: Record<string, string>; Containers: Record<string, unknown> };
  expect(Object.keys(network.Containers)).toEqual([info.Id]);
  return network;
}

/** The spare networks a worker keeps ready for dedicated instances (those no container took yet). */
async function sparesOf(workerId: string) {
  const networks = await docker.listNetworks({ filters: { label: [`${LABELS.deployment}=${deployment}`, `${LABELS.spare}=${workerId}`] } });
  const taken = new Set((await ourContainers()).map((c) => c.HostConfig.NetworkMode));
  return networks.filter((n) => !taken.has(n.Name));
}

/**
 * A stand-in for the path to the engine that the test can cut and restore: a unix socket passing
 * every connection through to the real engine's.
 */
async function engineProxy() {
  const configured = (docker.modem as unknown as { socketPath?: unknown }).socketPath;
  const target = typeof configured === "string" ? configured : "/var/run/docker.sock";
  const socketPath = path.join(os.tmpdir(), `${uniqueName("fs-engine").replace(/[^A-Za-z0-9-]/g, "")}.sock`);
  const open = new Set<net.Socket>();
  let server: net.Server | null = null;
  const proxy = {
    path: socketPath,
    async start() {
      rmSync(socketPath, { force: true });
      server = net.createServer((client) => {
        const upstream = net.connect(target);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          open.delete(client);
          open.delete(upstream);
        };
        open.add(client);
        open.add(upstream);
        for (const s of [client, upstream]) s.on("error", drop).on("close", drop);
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server!.listen(socketPath, resolve));
    },
    async stop() {
      if (!server) return;
      const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
      for (const s of open) s.destroy();
      await closing;
      server = null;
      rmSync(socketPath, { force: true });
    },
  };
  await proxy.start();
  return proxy;
}

async function newChallenge(data: Parameters<typeof createChallenge>[2] = {}) {
  return createChallenge(world, categoryId, data);
}

async function submit(challengeId: number, spec: Record<string, unknown>) {
  return submitJob(ctxOf(staff), { challenge_id: challengeId, job_spec: { port: BANNER_PORT, image: BANNER_IMAGE, replicas: 2, resources: { memory: 32 * 1024 * 1024, cpus: 0.2 }, ...spec } });
}

async function healthyCount(jobId: number, generation?: number) {
  return world.services.db.challengeServerInstance.count({ where: { jobId, status: "healthy", ...(generation !== undefined && { generation }) } });
}

beforeAll(async () => {
  teams = [await createTeamWith(world, 2), await createTeamWith(world, 1), await createTeamWith(world, 1), await createTeamWith(world, 1)];
}, 60_000);

describe("challenge servers on a real Docker engine", () => {
  let workerA: RunningTier;
  let sharedChallenge: { id: number; name: string };
  let sharedJobId: number;
  const sharedName = uniqueName("web").toLowerCase().replace(/[^a-z0-9]/g, "");

  it("answers challenge_server_disabled while no worker is alive", async () => {
    const challenge = await newChallenge();
    await submit(challenge.id, { name: uniqueName("nobody").toLowerCase().replace(/[^a-z0-9]/g, "") });
    const job = await world.services.db.challengeServerJob.findFirstOrThrow({ where: { challengeId: challenge.id } });
    await expect(getInstance(ctxOf(teams[0]!.members[0]!), job.name)).rejects.toMatchObject({ code: "challenge_server_disabled" });
    await world.services.db.challenge.delete({ where: { id: challenge.id } });
  });

  it("refuses a bad job_spec with field errors and creates nothing", async () => {
    workerA = await startWorker(uniqueName("worker-a"));
    const challenge = await newChallenge();
    const before = await world.services.db.challengeServerJob.count();
    const error = (await submitJob(ctxOf(staff), {
      challenge_id: challenge.id,
      job_spec: { name: "", port: "abc", replicas: 0, image: "", resources: { memory: 1, cpus: "x" } },
    }).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(400);
    expect(Object.keys(error.details as object).sort()).toEqual(["job_spec.image", "job_spec.name", "job_spec.port", "job_spec.replicas", "job_spec.resources.cpus", "job_spec.resources.memory"]);
    expect(await world.services.db.challengeServerJob.count()).toBe(before);
    await workerA.converger.run();
    expect(await ourContainers()).toHaveLength(0);
    const metadata = (await world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id } })).challengeMetadata as Record<string, unknown>;
    expect(metadata.cserv_name).toBeUndefined();
  });

  it("deploys a shared job's replicas, healthy, hardened, and names the job in cserv_name", async () => {
    sharedChallenge = await newChallenge();
    const job = await submit(sharedChallenge.id, { name: sharedName, env: { GREETING: "hi" } });
    sharedJobId = job.id;
    const metadata = (await world.services.db.challenge.findUniqueOrThrow({ where: { id: sharedChallenge.id } })).challengeMetadata as Record<string, unknown>;
    expect(metadata.cserv_name).toBe(sharedName);
    await until("2 healthy replicas", async () => (await healthyCount(job.id)) === 2);
    const containers = await ourContainers({ [LABELS.job]: String(job.id) });
    expect(containers).toHaveLength(2);
    const info = await docker.getContainer(containers[0]!.Id).inspect();
    expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
    expect(info.HostConfig.SecurityOpt).toContain("no-new-privileges");
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.Privileged).toBe(false);
    expect(info.HostConfig.PidsLimit).toBe(64);
    expect(info.HostConfig.Memory).toBe(32 * 1024 * 1024);
    expect(info.HostConfig.NanoCpus).toBe(200_000_000);
    expect(info.HostConfig.Tmpfs).toHaveProperty("/tmp");
    expect(info.HostConfig.Binds ?? []).toEqual([]);
    expect(info.HostConfig.NetworkMode).toBe(`fs-${deployment}-${jobEngineKey(sharedName)}`);
    expect(info.HostConfig.PortBindings[`${BANNER_PORT}/tcp`][0].HostIp).toBe("127.0.0.1");
    expect(info.Config.Env).toContain("GREETING=hi");
  });

  it("hands a team its instance, reachable, and keeps it pinned; other teams are balanced", async () => {
    const first = await getInstance(ctxOf(teams[0]!.members[0]!), sharedName);
    expect(first).toMatchObject({ ip: "127.0.0.1", port: expect.any(Number), extra: [`nc 127.0.0.1 ${first.port}`] });
    expect(await readBanner(first.ip, first.port)).toMatch(/^flagship-banner /);
    // The teammate gets the same instance (per team), and again on later calls.
    expect(await getInstance(ctxOf(teams[0]!.members[1]!), sharedName)).toEqual(first);
    expect(await getInstance(ctxOf(teams[0]!.members[0]!), sharedName)).toEqual(first);
    const second = await getInstance(ctxOf(teams[1]!.members[0]!), sharedName);
    expect(second.port).not.toBe(first.port);
  });

  it("gives parallel first requests of one team a single instance", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => getInstance(ctxOf(teams[2]!.members[0]!), sharedName)));
    expect(new Set(answers.map((a) => a.port)).size).toBe(1);
    expect(await world.services.db.teamInstance.count({ where: { teamId: teams[2]!.id, jobId: sharedJobId } })).toBe(1);
  });

  it("moves a team to another healthy replica on reset", async () => {
    const before = await getInstance(ctxOf(teams[0]!.members[0]!), sharedName);
    const after = await resetInstance(ctxOf(teams[0]!.members[0]!), sharedName);
    expect(after.port).not.toBe(before.port);
    expect(await getInstance(ctxOf(teams[0]!.members[1]!), sharedName)).toEqual(after);
  });

  it("marks a killed container's instance down as the engine reports it, and replaces it on the same host port, teams kept", async () => {
    const pin = await world.services.db.teamInstance.findUniqueOrThrow({ where: { teamId_jobId: { teamId: teams[1]!.id, jobId: sharedJobId } } });
    const [victim] = await ourContainers({ [LABELS.instance]: String(pin.instanceId) });
    const before = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: pin.instanceId } });
    expect(before.status).toBe("healthy");
    await docker.getContainer(victim!.Id).kill();
    const started = Date.now();
    // No request is handed the dead port once the engine has said the container died.
    await until("the instance marked down", async () => (await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: pin.instanceId } })).status !== "healthy", 2000);
    expect(Date.now() - started).toBeLessThan(1500);
    await until("a replacement container", async () => {
      const now = await ourContainers({ [LABELS.instance]: String(pin.instanceId) });
      return now.length === 1 && now[0]!.Id !== victim!.Id && now[0]!.State === "running";
    });
    // Healthy on the replacement, which took the port the team was given.
    const instance = await until("the replacement healthy", async () => {
      const row = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: pin.instanceId } });
      return row.status === "healthy" && row.port !== null ? row : null;
    });
    expect(instance.port).toBe(before.port);
    expect(Date.now() - started).toBeLessThan(10_000);
    const answer = await getInstance(ctxOf(teams[1]!.members[0]!), sharedName);
    expect(answer.port).toBe(before.port);
    expect(await readBanner(answer.ip, answer.port)).toMatch(/^flagship-banner /);
  });

  it("swaps replicas on resubmission: new ones healthy first, teams moved, old ones removed", async () => {
    const pinnedBefore = await world.services.db.teamInstance.count({ where: { jobId: sharedJobId } });
    const job = await submit(sharedChallenge.id, { name: sharedName, replicas: 3 });
    expect(job.generation).toBe(2);
    await until("the old generation gone", async () => {
      const old = await world.services.db.challengeServerInstance.count({ where: { jobId: sharedJobId, generation: 1 } });
      return old === 0 && (await healthyCount(sharedJobId, 2)) === 3;
    });
    const pins = await world.services.db.teamInstance.findMany({ where: { jobId: sharedJobId }, include: { instance: true } });
    expect(pins).toHaveLength(pinnedBefore);
    expect(pins.every((p) => p.instance.generation === 2)).toBe(true);
    await until("old containers removed", async () => (await ourContainers({ [LABELS.job]: String(sharedJobId) })).length === 3);
    const answer = await getInstance(ctxOf(teams[0]!.members[0]!), sharedName);
    expect(await readBanner(answer.ip, answer.port)).toMatch(/^flagship-banner /);
  });

  describe("dedicated jobs", () => {
    let dedicatedName: string;
    let dedicatedJobId: number;

    it("creates one container per team, on its own network, reused until reset", async () => {
      const challenge = await newChallenge();
      dedicatedName = uniqueName("pwn").toLowerCase().replace(/[^a-z0-9]/g, "");
      dedicatedJobId = (await submit(challenge.id, { name: dedicatedName, dedicated: true, lifetime: 600 })).id;
      const mine = await getInstance(ctxOf(teams[0]!.members[0]!), dedicatedName);
      expect(await readBanner(mine.ip, mine.port)).toMatch(/^flagship-banner /);
      expect(mine.extra[1]).toMatch(/removed at \d{4}-/);
      const containers = await ourContainers({ [LABELS.job]: String(dedicatedJobId), [LABELS.team]: String(teams[0]!.id) });
      expect(containers).toHaveLength(1);
      const network = await networkOf(containers[0]!.Id);
      expect(network.Labels[LABELS.deployment]).toBe(deployment);
      expect(await getInstance(ctxOf(teams[0]!.members[1]!), dedicatedName)).toEqual(mine);
      const theirs = await getInstance(ctxOf(teams[1]!.members[0]!), dedicatedName);
      expect(theirs.port).not.toBe(mine.port);
      const [theirContainer] = await ourContainers({ [LABELS.job]: String(dedicatedJobId), [LABELS.team]: String(teams[1]!.id) });
      expect((await networkOf(theirContainer!.Id)).Name).not.toBe(network.Name);

      const reset = await resetInstance(ctxOf(teams[0]!.members[0]!), dedicatedName);
      expect(await readBanner(reset.ip, reset.port)).toMatch(/^flagship-banner /);
      await until("the old container removed", async () => {
        const now = await ourContainers({ [LABELS.job]: String(dedicatedJobId), [LABELS.team]: String(teams[0]!.id) });
        return now.length === 1 && now[0]!.Id !== containers[0]!.Id;
      });
    });

    it("hands each team its own flag in its dedicated instance's environment, for a dynamic challenge", async () => {
      const challenge = await newChallenge({ flagType: "dynamic", flagMetadata: { secret: uniqueName("secret-").padEnd(24, "x") } });
      const name = uniqueName("flagbox").toLowerCase().replace(/[^a-z0-9]/g, "");
      const job = await submit(challenge.id, { name, dedicated: true, lifetime: 600, flag_env: "FLAG" });
      expect(job.flag_env).toBe("FLAG");
      for (const team of [teams[0]!, teams[1]!]) {
        const player = ctxOf(team.members[0]!);
        const instance = await getInstance(player, name);
        const { flag } = await getTeamFlag(ctxOf(staff), { challenge: challenge.id, team: team.id });
        // The service reads the variable and serves the flag: the team's own, and it scores.
        const banner = await readBanner(instance.ip, instance.port);
        expect(banner.split(" ")[2]).toBe(flag);
        expect((await submitFlag(player, { challenge: challenge.id, flag })).m).toBe("correct_flag");
      }
    });

    it("refuses a per-team flag variable for a shared job or a challenge without per-team flags, and stores nothing", async () => {
      const dynamic = await newChallenge({ flagType: "dynamic", flagMetadata: { secret: uniqueName("secret-").padEnd(24, "x") } });
      const plain = await newChallenge();
      const shared = await submit(dynamic.id, { name: uniqueName("shared").toLowerCase().replace(/[^a-z0-9]/g, ""), flag_env: "FLAG" }).catch((e: unknown) => e);
      expect(shared).toBeInstanceOf(AppError);
      expect(String(((shared as AppError).details as Record<string, string[]>)["job_spec.flag_env"])).toMatch(/dedicated/);
      const notDynamic = await submit(plain.id, { name: uniqueName("plain").toLowerCase().replace(/[^a-z0-9]/g, ""), dedicated: true, flag_env: "FLAG" }).catch((e: unknown) => e);
      expect(notDynamic).toBeInstanceOf(AppError);
      expect(String(((notDynamic as AppError).details as Record<string, string[]>)["job_spec.flag_env"])).toMatch(/dynamic/);
      const stored = await world.services.db.challengeServerJob.count({ where: { challengeId: { in: [dynamic.id, plain.id] } } });
      expect(stored).toBe(0);
    });

    it("gives many teams asking at once their own working instances, each on its own network", async () => {
      const crowd = await Promise.all(Array.from({ length: 12 }, () => createTeamWith(world, 1)));
      const answers = await Promise.all(crowd.map((team) => getInstance(ctxOf(team.members[0]!), dedicatedName)));
      expect(new Set(answers.map((a) => a.port)).size).toBe(crowd.length);
      const networks = new Set<string>();
      for (const [i, team] of crowd.entries()) {
        const containers = await ourContainers({ [LABELS.job]: String(dedicatedJobId), [LABELS.team]: String(team.id) });
        expect(containers).toHaveLength(1);
        // The banner names the container that answers: the team's own.
        const banner = await readBanner(answers[i]!.ip, answers[i]!.port);
        expect(containers[0]!.Id.startsWith(banner.replace(/^flagship-banner /, ""))).toBe(true);
        networks.add((await networkOf(containers[0]!.Id)).Name);
      }
      expect(networks.size).toBe(crowd.length);
      // Spare networks made ahead served some of them; the worker makes new ones to replace them.
      await until("spare networks ready again", async () => (await sparesOf(workerA.workerId)).length === SPARES, 60_000);
      // Their instances go (as at the end of their lifetime), networks included.
      await world.services.db.challengeServerInstance.deleteMany({ where: { jobId: dedicatedJobId, teamId: { in: crowd.map((t) => t.id) } } });
      await until("the crowd's containers and networks removed", async () => {
        const left = await Promise.all(crowd.map((team) => ourContainers({ [LABELS.team]: String(team.id) })));
        const names = new Set((await docker.listNetworks()).map((n) => n.Name));
        return left.every((l) => l.length === 0) && [...networks].every((n) => !names.has(n));
      }, 60_000);
    }, 180_000);

    it("removes a worker's spare networks when it stops, and those of a crashed worker", async () => {
      const tidy = await startWorker(uniqueName("worker-tidy"), { networkSpares: 2 });
      const crashed = await startWorker(uniqueName("worker-crashed"), { networkSpares: 2 });
      // The engine makes networks one at a time: on a busy machine four of them (beside the other
      // workers' own) take a while.
      await until("both workers' spares made", async () => (await sparesOf(tidy.workerId)).length === 2 && (await sparesOf(crashed.workerId)).length === 2, 60_000);
      await tidy.stop();
      running.splice(running.indexOf(tidy), 1);
      expect(await sparesOf(tidy.workerId)).toHaveLength(0);
      await crashed.kill();
      running.splice(running.indexOf(crashed), 1);
      await world.services.db.challengeServerWorker.update({ where: { id: crashed.workerId }, data: { lastSeen: new Date(0) } });
      await until("the crashed worker's spares removed", async () => (await sparesOf(crashed.workerId)).length === 0, 60_000);
    }, 180_000);

    it("makes again a spare network that went missing (swept while its worker was thought gone)", async () => {
      await until("spare networks ready", async () => (await sparesOf(workerA.workerId)).length === SPARES, 60_000);
      const [missing] = await sparesOf(workerA.workerId);
      await docker.getNetwork(missing!.Id).remove();
      await until("the missing spare made again", async () => {
        const spares = await sparesOf(workerA.workerId);
        return spares.length === SPARES && spares.every((n) => n.Name !== missing!.Name);
      }, 60_000);
    }, 150_000);

    it("gives parallel requests of one team one instance", async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => getInstance(ctxOf(teams[3]!.members[0]!), dedicatedName)));
      expect(new Set(answers.map((a) => a.port)).size).toBe(1);
      expect(await world.services.db.challengeServerInstance.count({ where: { jobId: dedicatedJobId, teamId: teams[3]!.id } })).toBe(1);
    });

    it("holds the per-team cap on concurrent dedicated instances", async () => {
      await world.services.db.config.upsert({ where: { key: "challenge_server_instance_limit" }, create: { key: "challenge_server_instance_limit", value: 1 }, update: { value: 1 } });
      world.services.config.invalidate();
      const other = await newChallenge();
      const otherName = uniqueName("pwn2").toLowerCase().replace(/[^a-z0-9]/g, "");
      await submit(other.id, { name: otherName, dedicated: true });
      await expect(getInstance(ctxOf(teams[0]!.members[0]!), otherName)).rejects.toMatchObject({ code: "challenge_server_limit", status: 403 });
      await world.services.db.config.delete({ where: { key: "challenge_server_instance_limit" } });
      world.services.config.invalidate();
    });

    it("removes a dedicated instance past its lifetime", async () => {
      const row = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { jobId_teamId: { jobId: dedicatedJobId, teamId: teams[1]!.id } } });
      await world.services.db.challengeServerInstance.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await reconcile(world.services.db);
      await until("the expired container removed", async () => (await ourContainers({ [LABELS.instance]: String(row.id) })).length === 0);
    });
  });

  describe("warm pools of dedicated instances", () => {
    const WARM = 3;
    let poolChallenge: { id: number };
    let poolName: string;
    let poolJobId: number;

    /** The job's warm instances waiting for a team, healthy, of its current spec. */
    async function waitingPool(jobId: number) {
      const job = await world.services.db.challengeServerJob.findUniqueOrThrow({ where: { id: jobId } });
      return world.services.db.challengeServerInstance.findMany({ where: { jobId, pooled: true, teamId: null, generation: job.generation, status: "healthy" }, orderBy: { id: "asc" } });
    }

    async function poolFull(jobId: number, size: number) {
      return until(`${size} warm instances`, async () => {
        const rows = await waitingPool(jobId);
        const all = await world.services.db.challengeServerInstance.count({ where: { jobId, pooled: true } });
        // As many as asked, every one healthy and none more on the way.
        return rows.length === size && all === size ? rows : null;
      }, 60_000);
    }

    function expectHardened(info: Docker.ContainerInspectInfo) {
      expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
      expect(info.HostConfig.SecurityOpt).toContain("no-new-privileges");
      expect(info.HostConfig.ReadonlyRootfs).toBe(true);
      expect(info.HostConfig.Privileged).toBe(false);
      expect(info.HostConfig.PidsLimit).toBe(64);
      expect(info.HostConfig.Memory).toBe(32 * 1024 * 1024);
      expect(info.HostConfig.Tmpfs).toHaveProperty("/tmp");
      expect(info.HostConfig.Binds ?? []).toEqual([]);
      expect(info.HostConfig.PortBindings[`${BANNER_PORT}/tcp`][0].HostIp).toBe("127.0.0.1");
    }

    beforeAll(async () => {
      // Run alone (-t), the tests here need a worker of their own.
      if (running.length === 0) await startWorker(uniqueName("worker-pool"));
    }, 60_000);

    it("fills a dedicated job's pool to its size: started, healthy, hardened, labelled as pooled, each on a network of its own", async () => {
      poolChallenge = await newChallenge();
      poolName = uniqueName("warm").toLowerCase().replace(/[^a-z0-9]/g, "");
      const job = await submit(poolChallenge.id, { name: poolName, dedicated: true, lifetime: 600, warm: WARM, env: { GREETING: "warm" } });
      poolJobId = job.id;
      expect(job.warm).toBe(WARM);
      const rows = await poolFull(poolJobId, WARM);
      const containers = await ourContainers({ [LABELS.job]: String(poolJobId), [LABELS.pooled]: "true" });
      expect(containers).toHaveLength(WARM);
      const networks = new Set<string>();
      for (const c of containers) {
        expect(c.Labels[LABELS.team]).toBeUndefined();
        expect(rows.map((r) => String(r.id))).toContain(c.Labels[LABELS.instance]);
        const info = await docker.getContainer(c.Id).inspect();
        expectHardened(info);
        expect(info.Config.Env).toContain("GREETING=warm");
        networks.add((await networkOf(c.Id)).Name);
      }
      expect(networks.size).toBe(WARM);
      // Nobody's lifetime runs while it waits.
      expect(rows.every((r) => r.expiresAt === null)).toBe(true);
      // Staff see the pool in the job's state, apart from the teams' instances.
      const state = (await listJobs(ctxOf(staff))).find((j) => j.id === poolJobId)!;
      expect(state).toMatchObject({ warm: WARM, warm_ready: WARM, healthy: 0, total: 0, state: "running" });
      expect(state.instances.filter((i) => i.pooled)).toHaveLength(WARM);
    }, 90_000);

    it("gives teams asking at once each a different warm instance, reachable and hardened, its lifetime starting at the claim", async () => {
      const waiting = new Set((await waitingPool(poolJobId)).map((r) => r.id));
      const crowd = await Promise.all(Array.from({ length: WARM }, () => createTeamWith(world, 2)));
      const claimedAt = Date.now();
      // Both members of every team ask at the same moment.
      const answers = await Promise.all(crowd.flatMap((team) => team.members.map((m) => getInstance(ctxOf(m), poolName))));
      const rows = await world.services.db.challengeServerInstance.findMany({ where: { jobId: poolJobId, teamId: { in: crowd.map((t) => t.id) } } });
      expect(rows).toHaveLength(WARM);
      // One claim per warm instance: every team took a different one, all from the pool.
      expect(new Set(rows.map((r) => r.id)).size).toBe(WARM);
      expect(rows.every((r) => waiting.has(r.id) && !r.pooled)).toBe(true);
      for (const [i, team] of crowd.entries()) {
        const mine = answers.slice(i * 2, i * 2 + 2);
        expect(mine[1]).toEqual(mine[0]);
        const row = rows.find((r) => r.teamId === team.id)!;
        expect(mine[0]!.port).toBe(row.port);
        expect(row.expiresAt!.getTime()).toBeGreaterThanOrEqual(claimedAt + 600_000 - 2000);
        expect(mine[0]!.extra[1]).toMatch(/removed at \d{4}-/);
        const [container] = await ourContainers({ [LABELS.instance]: String(row.id) });
        expect(container!.Labels[LABELS.pooled]).toBe("true");
        // The banner names the container that answers: the claimed warm one.
        const banner = await readBanner(mine[0]!.ip, mine[0]!.port);
        expect(container!.Id.startsWith(banner.replace(/^flagship-banner /, ""))).toBe(true);
        expectHardened(await docker.getContainer(container!.Id).inspect());
        await networkOf(container!.Id);
      }
      expect(new Set(answers.map((a) => a.port)).size).toBe(WARM);
    }, 90_000);

    it("refills the pool after claims", async () => {
      const claimed = new Set((await world.services.db.challengeServerInstance.findMany({ where: { jobId: poolJobId, teamId: { not: null } } })).map((r) => r.id));
      const rows = await poolFull(poolJobId, WARM);
      expect(rows.every((r) => !claimed.has(r.id))).toBe(true);
      expect(await ourContainers({ [LABELS.job]: String(poolJobId), [LABELS.pooled]: "true" })).toHaveLength(WARM * 2);
    }, 90_000);

    it("falls back to creating instances on demand once the pool is empty", async () => {
      const waiting = new Set((await waitingPool(poolJobId)).map((r) => r.id));
      expect(waiting.size).toBe(WARM);
      const crowd = await Promise.all(Array.from({ length: WARM + 3 }, () => createTeamWith(world, 1)));
      const answers = await Promise.all(crowd.map((team) => getInstance(ctxOf(team.members[0]!), poolName)));
      expect(new Set(answers.map((a) => a.port)).size).toBe(crowd.length);
      for (const answer of answers) expect(await readBanner(answer.ip, answer.port)).toMatch(/^flagship-banner /);
      const rows = await world.services.db.challengeServerInstance.findMany({ where: { jobId: poolJobId, teamId: { in: crowd.map((t) => t.id) } } });
      expect(rows).toHaveLength(crowd.length);
      // The whole pool went to the first teams; the others got instances although it was empty.
      expect(rows.filter((r) => waiting.has(r.id))).toHaveLength(WARM);
      const others = rows.filter((r) => !waiting.has(r.id));
      expect(others).toHaveLength(3);
      // Created for their team (not warm ones made later): their containers carry the team's label.
      const onDemand = await Promise.all(others.map(async (r) => (await ourContainers({ [LABELS.instance]: String(r.id) }))[0]!));
      expect(onDemand.filter((c) => c.Labels[LABELS.team] !== undefined && c.Labels[LABELS.pooled] === undefined).length).toBeGreaterThan(0);
      await poolFull(poolJobId, WARM);
    }, 120_000);

    it("replaces a warm instance whose container died", async () => {
      const [victim] = await waitingPool(poolJobId);
      const [container] = await ourContainers({ [LABELS.instance]: String(victim!.id) });
      await docker.getContainer(container!.Id).kill();
      const rows = await until("the pool whole again without the dead container", async () => {
        const rows = await waitingPool(poolJobId);
        if (rows.length !== WARM) return false;
        const containers = await ourContainers({ [LABELS.job]: String(poolJobId), [LABELS.pooled]: "true" });
        const running = new Set(containers.filter((c) => c.State === "running").map((c) => c.Labels[LABELS.instance]));
        // Healthy again on a new container (on the same host port where free), or replaced by a new warm instance.
        const renewed = rows.every((r) => running.has(String(r.id)));
        return renewed && !containers.some((c) => c.Id === container!.Id) ? rows : false;
      }, 60_000);
      for (const row of rows) expect(await readBanner(row.host, row.port!)).toMatch(/^flagship-banner /);
    }, 90_000);

    it("swaps the pool when the job is resubmitted", async () => {
      const before = (await waitingPool(poolJobId)).map((r) => r.id);
      const oldContainers = await ourContainers({ [LABELS.job]: String(poolJobId), [LABELS.pooled]: "true", [LABELS.generation]: "1" });
      const job = await submit(poolChallenge.id, { name: poolName, dedicated: true, lifetime: 600, warm: 2, env: { GREETING: "second" } });
      expect(job.generation).toBe(2);
      const rows = await poolFull(poolJobId, 2);
      expect(rows.every((r) => r.generation === 2 && !before.includes(r.id))).toBe(true);
      await until("the old pool's containers removed", async () => {
        const left = new Set((await ourContainers({ [LABELS.job]: String(poolJobId) })).map((c) => c.Id));
        // The old pool's waiting containers go; those claimed by teams are recreated with the new spec.
        return oldContainers.length > 0 && oldContainers.every((c) => !left.has(c.Id));
      }, 60_000);
      for (const row of rows) {
        const [container] = await ourContainers({ [LABELS.instance]: String(row.id) });
        expect((await docker.getContainer(container!.Id).inspect()).Config.Env).toContain("GREETING=second");
      }
    }, 120_000);

    it("removes the pool's containers with the job", async () => {
      await removeJob(ctxOf(staff), poolJobId);
      await until("no container of the job left", async () => (await ourContainers({ [LABELS.job]: String(poolJobId) })).length === 0, 60_000);
      expect(await world.services.db.challengeServerInstance.count({ where: { jobId: poolJobId } })).toBe(0);
    }, 90_000);

    it("never keeps a pool for a job whose instances carry each team's flag", async () => {
      const challenge = await newChallenge({ flagType: "dynamic", flagMetadata: { secret: uniqueName("secret-").padEnd(24, "x") } });
      const name = uniqueName("flagwarm").toLowerCase().replace(/[^a-z0-9]/g, "");
      const refused = (await submit(challenge.id, { name, dedicated: true, flag_env: "FLAG", warm: 2 }).catch((e: unknown) => e)) as AppError;
      expect(refused).toBeInstanceOf(AppError);
      expect(String((refused.details as Record<string, string[]>)["job_spec.warm"])).toMatch(/own flag/);
      expect(await world.services.db.challengeServerJob.count({ where: { challengeId: challenge.id } })).toBe(0);
      // Even a pool size stored some other way is not honoured: each team's instance is made for it.
      const job = await submit(challenge.id, { name, dedicated: true, flag_env: "FLAG" });
      await world.services.db.challengeServerJob.update({ where: { id: job.id }, data: { warm: 2 } });
      await reconcile(world.services.db);
      const team = await createTeamWith(world, 1);
      const instance = await getInstance(ctxOf(team.members[0]!), name);
      const { flag } = await getTeamFlag(ctxOf(staff), { challenge: challenge.id, team: team.id });
      expect((await readBanner(instance.ip, instance.port)).split(" ")[2]).toBe(flag);
      expect(await world.services.db.challengeServerInstance.count({ where: { jobId: job.id, pooled: true } })).toBe(0);
      expect(await ourContainers({ [LABELS.job]: String(job.id), [LABELS.pooled]: "true" })).toHaveLength(0);
      await world.services.db.challenge.delete({ where: { id: challenge.id } });
    }, 90_000);
  });

  it("moves a stopped worker's instances to another worker, teams included", async () => {
    const workerB = await startWorker(uniqueName("worker-b"));
    const onA = await world.services.db.challengeServerInstance.count({ where: { workerId: workerA.workerId } });
    expect(onA).toBeGreaterThan(0);
    const pin = await world.services.db.teamInstance.findUniqueOrThrow({ where: { teamId_jobId: { teamId: teams[0]!.id, jobId: sharedJobId } } });
    await workerA.kill();
    // A crash: no goodbye. Its heartbeat ages past the limit (as 15 s of silence would make it).
    await world.services.db.challengeServerWorker.update({ where: { id: workerA.workerId }, data: { lastSeen: new Date(0) } });
    await until("every instance on worker B and healthy", async () => {
      const rows = await world.services.db.challengeServerInstance.findMany({ where: { jobId: sharedJobId } });
      return rows.length > 0 && rows.every((r) => r.workerId === workerB.workerId && r.status === "healthy");
    });
    const stillPinned = await world.services.db.teamInstance.findUniqueOrThrow({ where: { teamId_jobId: { teamId: teams[0]!.id, jobId: sharedJobId } } });
    expect(stillPinned.instanceId).toBe(pin.instanceId);
    await until("worker A's containers removed", async () => (await ourContainers({ [LABELS.worker]: workerA.workerId })).length === 0);
    const answer = await getInstance(ctxOf(teams[0]!.members[0]!), sharedName);
    expect(await readBanner(answer.ip, answer.port)).toMatch(/^flagship-banner /);
  });

  it("tears a job's containers down when its challenge is deleted", async () => {
    await world.services.db.challenge.delete({ where: { id: sharedChallenge.id } });
    await until("no container of the job", async () => (await ourContainers({ [LABELS.job]: String(sharedJobId) })).length === 0);
    await expect(getInstance(ctxOf(teams[0]!.members[0]!), sharedName)).rejects.toMatchObject({ code: "not_found" });
  });

  it("ends in challenge_server_error when an image cannot be pulled: a plain sentence for players, the registry's reason for staff", async () => {
    const challenge = await newChallenge();
    const name = uniqueName("nopull").toLowerCase().replace(/[^a-z0-9]/g, "");
    // An internal registry is allowed only when the operator lists it.
    world.services.challengeRegistries = ["127.0.0.1:1"];
    try {
      await submit(challenge.id, { name, image: "127.0.0.1:1/flagship/missing:1", replicas: 1 });
    } finally {
      world.services.challengeRegistries = undefined;
    }
    const error = await until("the deploy to fail", async () => {
      const e = await getInstance(ctxOf(teams[2]!.members[0]!), name).catch((err: unknown) => err);
      return e instanceof AppError && e.code === "challenge_server_error" && /could not be started/.test(e.message) ? e : null;
    });
    expect(error.status).toBe(500);
    expect(`${error.message} ${JSON.stringify(error.details)}`).not.toMatch(/127\.0\.0\.1|pull|docker|sock/i);
    const job = (await listJobs(ctxOf(staff) as never)).find((j) => j.name === name)!;
    expect(job.last_error).toMatch(/pull|127\.0\.0\.1:1/i);
    await world.services.db.challenge.delete({ where: { id: challenge.id } });
  });

  describe("a worker whose engine stops answering", () => {
    let proxy: Awaited<ReturnType<typeof engineProxy>>;
    afterAll(async () => proxy?.stop());

    it("keeps handing out what was healthy, takes no placements, moves its dedicated instances after its grace, and removes its stale containers when the engine is back", async () => {
      for (const tier of running.splice(0)) await tier.stop();
      await world.services.db.challengeServerWorker.updateMany({ data: { lastSeen: new Date(0) } });
      proxy = await engineProxy();
      const lossy = await startWorker(uniqueName("worker-lossy"), { docker: new Docker({ socketPath: proxy.path }), engineGraceSeconds: 3 });
      const challenge = await newChallenge();
      const name = uniqueName("blip");
      await submit(challenge.id, { name, dedicated: true, lifetime: 600 });
      const team = teams[3]!;
      const first = await getInstance(ctxOf(team.members[0]!), name);
      const row = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { jobId_teamId: { jobId: (await world.services.db.challengeServerJob.findUniqueOrThrow({ where: { name } })).id, teamId: team.id } } });
      expect(row.workerId).toBe(lossy.workerId);
      const steady = await startWorker(uniqueName("worker-steady"));

      await proxy.stop();
      const lostAt = Date.now();
      await until("the engine's loss reported", async () => (await world.services.db.challengeServerWorker.findUniqueOrThrow({ where: { id: lossy.workerId } })).engineLostAt !== null, 5000);
      // Within the grace the team keeps its instance, which keeps serving.
      expect(await getInstance(ctxOf(team.members[0]!), name)).toEqual(first);
      expect(await readBanner(first.ip, first.port)).toMatch(/^flagship-banner /);
      // A new instance goes to the worker whose engine answers.
      await getInstance(ctxOf(teams[2]!.members[0]!), name);
      const placed = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { jobId_teamId: { jobId: row.jobId, teamId: teams[2]!.id } } });
      expect(placed.workerId).toBe(steady.workerId);
      // Past the grace the team's instance is re-created on the other worker.
      const moved = await until("the team's instance on the steady worker", async () => {
        const now = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: row.id } });
        return now.workerId === steady.workerId && now.status === "healthy" ? now : null;
      });
      expect(Date.now() - lostAt).toBeLessThan(30_000);
      const second = await getInstance(ctxOf(team.members[0]!), name);
      expect(second.port).toBe(moved.port);
      expect(await readBanner(second.ip, second.port)).toMatch(/^flagship-banner /);

      await proxy.start();
      await until("the engine back and the stale container removed", async () => {
        const worker = await world.services.db.challengeServerWorker.findUniqueOrThrow({ where: { id: lossy.workerId } });
        return worker.engineLostAt === null && (await ourContainers({ [LABELS.worker]: lossy.workerId })).length === 0;
      });
      await world.services.db.challenge.delete({ where: { id: challenge.id } });
    }, 90_000);

    it("marks down at once, long before its grace, a replica whose port stops answering while the engine is away, and moves its team to one that still answers", async () => {
      for (const tier of running.splice(0)) await tier.stop();
      await world.services.db.challengeServerWorker.updateMany({ data: { lastSeen: new Date(0) } });
      await proxy?.stop();
      proxy = await engineProxy();
      // A grace far longer than the test: the team must move because its replica went silent.
      const lossy = await startWorker(uniqueName("worker-lost"), { docker: new Docker({ socketPath: proxy.path }), engineGraceSeconds: 600 });
      const challenge = await newChallenge();
      const name = uniqueName("hostlost").toLowerCase().replace(/[^a-z0-9]/g, "");
      const job = await submit(challenge.id, { name, replicas: 2 });
      await until("2 healthy replicas", async () => (await healthyCount(job.id)) === 2);
      const [dead, alive] = await world.services.db.challengeServerInstance.findMany({ where: { jobId: job.id }, orderBy: { slot: "asc" } });
      const team = teams[1]!;
      await getInstance(ctxOf(team.members[0]!), name);
      await world.services.db.teamInstance.update({ where: { teamId_jobId: { teamId: team.id, jobId: job.id } }, data: { instanceId: dead!.id } });
      expect(await getInstance(ctxOf(team.members[0]!), name)).toMatchObject({ port: dead!.port });

      // The engine stops answering, then one replica's container dies where the worker cannot see it.
      await proxy.stop();
      await until("the engine's loss reported", async () => (await world.services.db.challengeServerWorker.findUniqueOrThrow({ where: { id: lossy.workerId } })).engineLostAt !== null, 5000);
      const [container] = await ourContainers({ [LABELS.job]: String(job.id), [LABELS.instance]: String(dead!.id) });
      await docker.getContainer(container!.Id).kill();
      const lostAt = Date.now();
      await until("the silent replica marked down", async () => (await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: dead!.id } })).status === "unhealthy", 5000);
      const moved = await getInstance(ctxOf(team.members[0]!), name);
      expect(moved.port).toBe(alive!.port);
      expect(await readBanner(moved.ip, moved.port)).toMatch(/^flagship-banner /);
      expect(Date.now() - lostAt).toBeLessThan(5000);
      // The replica that still answers keeps its address; the silent one stays on its worker, within its grace.
      expect(await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: alive!.id } })).toMatchObject({ status: "healthy", port: alive!.port });
      expect((await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: dead!.id } })).workerId).toBe(lossy.workerId);

      // Once the engine is back, the silent replica is replaced on its worker.
      await proxy.start();
      await until("the silent replica healthy again", async () => (await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { id: dead!.id } })).status === "healthy");
      await world.services.db.challenge.delete({ where: { id: challenge.id } });
    }, 90_000);
  });

  it("reports an unreachable Docker engine as a plain challenge_server_error, after a short wait", async () => {
    for (const tier of running.splice(0)) await tier.stop();
    await world.services.db.challengeServerWorker.updateMany({ data: { lastSeen: new Date(0) } });
    const nodocker = await startWorker(uniqueName("worker-nodocker"), { docker: new Docker({ socketPath: "/nonexistent/docker.sock" }) });
    expect((await world.services.db.challengeServerWorker.findUniqueOrThrow({ where: { id: nodocker.workerId } })).engineLostAt).not.toBeNull();
    const challenge = await newChallenge();
    const name = uniqueName("noengine").toLowerCase().replace(/[^a-z0-9]/g, "");
    await submit(challenge.id, { name, replicas: 1 });
    const started = Date.now();
    const error = (await getInstance(ctxOf(teams[2]!.members[0]!), name).catch((err: unknown) => err)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("challenge_server_error");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(`${error.message} ${JSON.stringify(error.details)}`).not.toMatch(/nonexistent|ENOENT|sock|connect/i);
  });
});

describe("challenge servers on a single-node Docker Swarm", () => {
  let initialised = false;
  let swarmWorker: RunningTier;

  beforeAll(async () => {
    const info = (await docker.info()) as { Swarm?: { LocalNodeState?: string } };
    if (info.Swarm?.LocalNodeState !== "active") {
      execFileSync("docker", ["swarm", "init", "--advertise-addr", "127.0.0.1"], { stdio: "ignore" });
      initialised = true;
    }
    for (const tier of running.splice(0)) await tier.stop();
    // Let the tier forget the earlier workers at once, as 15 s of silence would.
    await world.services.db.challengeServerWorker.updateMany({ data: { lastSeen: new Date(0) } });
    swarmWorker = await startWorker(uniqueName("worker-swarm"), { backend: "auto" });
  }, 60_000);

  afterAll(async () => {
    const services = (await docker.listServices({ filters: { label: [`${LABELS.deployment}=${deployment}`] } })) as { ID: string }[];
    for (const service of services) await docker.getService(service.ID).remove().catch(() => undefined);
    if (initialised) execFileSync("docker", ["swarm", "leave", "--force"], { stdio: "ignore" });
  }, 60_000);

  async function ourServices() {
    return (await docker.listServices({ filters: { label: [`${LABELS.deployment}=${deployment}`] } })) as unknown as {
      ID: string;
      Spec: { Name: string; Mode: { Replicated: { Replicas: number } }; TaskTemplate: { ContainerSpec: Record<string, unknown>; Resources: { Limits: Record<string, number> } } };
    }[];
  }

  it("picks the Swarm backend on a manager and runs a shared job as one hardened replicated service", async () => {
    expect(swarmWorker.deployer.backend).toBe("swarm");
    const challenge = await newChallenge();
    const name = uniqueName("swarm").toLowerCase().replace(/[^a-z0-9]/g, "");
    const job = await submit(challenge.id, { name, replicas: 2 });
    await until("2 healthy replicas", async () => (await healthyCount(job.id)) === 2, 60_000);
    const services = (await ourServices()).filter((s) => s.Spec.Name.includes(`-${jobEngineKey(name)}-g`));
    expect(services).toHaveLength(1);
    const spec = services[0]!.Spec;
    expect(spec.Mode.Replicated.Replicas).toBe(2);
    expect(spec.TaskTemplate.ContainerSpec).toMatchObject({ ReadOnly: true, CapabilityDrop: ["ALL"] });
    expect(spec.TaskTemplate.Resources.Limits).toMatchObject({ MemoryBytes: 32 * 1024 * 1024, NanoCPUs: 200_000_000, Pids: 64 });
    const mine = await getInstance(ctxOf(teams[0]!.members[0]!), name);
    expect(await readBanner(mine.ip, mine.port)).toMatch(/^flagship-banner /);
    const theirs = await getInstance(ctxOf(teams[1]!.members[0]!), name);
    expect(theirs.port).not.toBe(mine.port);
    await world.services.db.challenge.delete({ where: { id: challenge.id } });
    await until("the service removed", async () => (await ourServices()).every((s) => !s.Spec.Name.includes(`-${jobEngineKey(name)}-g`)));
  });

  it("keeps a warm pool as hardened one-replica services, labelled as pooled, and hands one to a team", async () => {
    const challenge = await newChallenge();
    const name = uniqueName("swarmwarm").toLowerCase().replace(/[^a-z0-9]/g, "");
    const job = await submit(challenge.id, { name, dedicated: true, warm: 2 });
    const waiting = await until("2 warm instances", async () => {
      const rows = await world.services.db.challengeServerInstance.findMany({ where: { jobId: job.id, pooled: true, teamId: null, status: "healthy" } });
      return rows.length === 2 ? rows : null;
    }, 60_000);
    const services = (await ourServices()).filter((s) => waiting.some((r) => s.Spec.Name.endsWith(`-i${r.id}-r1`)));
    expect(services).toHaveLength(2);
    for (const service of services) {
      expect(service.Spec.Mode.Replicated.Replicas).toBe(1);
      expect(service.Spec.TaskTemplate.ContainerSpec).toMatchObject({ ReadOnly: true, CapabilityDrop: ["ALL"], Labels: { [LABELS.pooled]: "true" } });
    }
    const mine = await getInstance(ctxOf(teams[3]!.members[0]!), name);
    const row = await world.services.db.challengeServerInstance.findUniqueOrThrow({ where: { jobId_teamId: { jobId: job.id, teamId: teams[3]!.id } } });
    expect(waiting.map((r) => r.id)).toContain(row.id);
    expect(mine.port).toBe(row.port);
    expect(await readBanner(mine.ip, mine.port)).toMatch(/^flagship-banner /);
    await world.services.db.challenge.delete({ where: { id: challenge.id } });
    await until("the job's services removed", async () => (await ourServices()).every((s) => !s.Spec.Name.includes(`-${jobEngineKey(name)}-g`) && !waiting.some((r) => s.Spec.Name.includes(`-i${r.id}-`))));
  }, 90_000);

  it("runs a dedicated instance as a one-replica service and recreates it on reset", async () => {
    const challenge = await newChallenge();
    const name = uniqueName("swarmded").toLowerCase().replace(/[^a-z0-9]/g, "");
    await submit(challenge.id, { name, dedicated: true });
    const first = await getInstance(ctxOf(teams[2]!.members[0]!), name);
    expect(await readBanner(first.ip, first.port)).toMatch(/^flagship-banner /);
    const before = (await ourServices()).map((s) => s.Spec.Name);
    expect(before.filter((n) => /-i\d+-r1$/.test(n))).toHaveLength(1);
    const reset = await resetInstance(ctxOf(teams[2]!.members[0]!), name);
    expect(await readBanner(reset.ip, reset.port)).toMatch(/^flagship-banner /);
    await until("the first service replaced", async () => {
      const names = (await ourServices()).map((s) => s.Spec.Name);
      return names.some((n) => /-r2$/.test(n)) && !names.some((n) => /-r1$/.test(n));
    });
  });
});
