import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABELS, type Unit } from "./deployer.ts";
import { DockerDeployer } from "./docker-deployer.ts";
import { BANNER_IMAGE, BANNER_PORT, buildBannerImage, readBanner } from "./test-image.ts";

/**
 * Several workers on one Docker engine (the compose stack runs two on the host's engine, and an
 * operator may scale them) starting replicas of the same shared job at the same moment, against
 * the real engine. Each replica goes on the job's network, which every worker makes when it is
 * missing: the engine does not make network names unique under parallel creates, and a second
 * network of the same name left every later container on it "ambiguous", so the job's instances
 * failed for good. On a busy machine (the other suites beside it) twins were made in most runs.
 */

const docker = new Docker();
const deployment = `se${randomBytes(4).toString("hex")}`;
const WORKERS = 4;
const ROUNDS = 6;

function deployerOf(worker: number): DockerDeployer {
  return new DockerDeployer(docker, { deployment, bindAddress: "127.0.0.1", publicHost: "127.0.0.1", workerId: `${deployment}-w${worker}` });
}

function unitOf(job: string, worker: number): Unit {
  return {
    name: `fs-${deployment}-${job}-w${worker}`,
    labels: { [LABELS.deployment]: deployment, [LABELS.worker]: `${deployment}-w${worker}`, [LABELS.job]: job },
    image: BANNER_IMAGE,
    port: BANNER_PORT,
    env: {},
    memory: 32 * 1024 * 1024,
    cpus: 0.1,
    writable: false,
    pidsLimit: 32,
    replicas: 1,
    network: `fs-${deployment}-${job}`,
    registryAuth: null,
  };
}

/** The banner of a container just started: asked again until it listens (10 s at most). */
async function bannerOf(port: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await readBanner("127.0.0.1", port);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function networksNamed(name: string) {
  return (await docker.listNetworks({ filters: { name: [name] } })).filter((n) => n.Name === name);
}

async function cleanUp() {
  const containers = await docker.listContainers({ all: true, filters: { label: [`${LABELS.deployment}=${deployment}`] } });
  for (const c of containers) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
  const networks = (await docker.listNetworks()).filter((n) => n.Name.startsWith(`fs-${deployment}-`));
  for (const n of networks) await docker.getNetwork(n.Id).remove().catch(() => undefined);
}

beforeAll(() => {
  buildBannerImage();
});

afterAll(cleanUp, 60_000);

describe("workers sharing one Docker engine", () => {
  it(
    "start replicas of one job at the same moment: every replica runs, on one network of the job's name",
    { timeout: 120_000 },
    async () => {
      const workers = Array.from({ length: WORKERS }, (_, i) => deployerOf(i));
      for (let round = 0; round < ROUNDS; round++) {
        const job = `j${round}`;
        const endpoints = await Promise.all(workers.map((worker, i) => worker.ensure(unitOf(job, i))));
        for (const [endpoint] of endpoints) {
          expect(endpoint?.port).toBeGreaterThan(0);
          expect(await bannerOf(endpoint!.port!)).toMatch(/^flagship-banner /);
        }
        const networks = await networksNamed(`fs-${deployment}-${job}`);
        expect(networks).toHaveLength(1);
        const attached = (await docker.getNetwork(networks[0]!.Id).inspect()) as { Containers: Record<string, unknown> };
        expect(Object.keys(attached.Containers)).toHaveLength(WORKERS);
      }
    },
  );

  it(
    "remove a job's replicas at the same moment: its network goes with the last one",
    async () => {
      const workers = Array.from({ length: WORKERS }, (_, i) => deployerOf(i));
      for (let round = 0; round < ROUNDS; round++) {
        const job = `j${round}`;
        await Promise.all(workers.map((worker, i) => worker.remove(unitOf(job, i).name)));
        expect(await networksNamed(`fs-${deployment}-${job}`)).toHaveLength(0);
      }
    },
    120_000,
  );
});
