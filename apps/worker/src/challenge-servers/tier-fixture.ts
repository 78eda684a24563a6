import { createChallengeServerTier } from "@flagship/api";
import { createCategory, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "@flagship/api/testing";
import { redisConnection } from "@flagship/jobs";
import Docker from "dockerode";
import { afterAll, inject } from "vitest";
import { LABELS } from "./deployer.ts";
import { type RunningTier, startChallengeServerTier, type TierOptions } from "./runtime.ts";
import { buildBannerImage } from "./test-image.ts";

/** What the tests of workers on this machine's real Docker engine and Redis start from. */
export interface TierFixture {
  docker: Docker;
  /** A fresh database, with the server's side of the tier (jobs submitted, instances handed out) on Redis. */
  world: TestWorld;
  staff: TestUser;
  categoryId: number;
  /** The file's own BullMQ prefix and deployment: its queues, containers and networks are its own. */
  prefix: string;
  deployment: string;
  /** The tiers started, stopped after the file's tests (a test that stops one itself takes it out). */
  running: RunningTier[];
  /** A worker's options: fast heartbeats and passes, instances on 127.0.0.1, the file's defaults, then `overrides`. */
  tierOptions(workerId: string, overrides?: Partial<TierOptions>): TierOptions;
  startWorker(workerId: string, overrides?: Partial<TierOptions>): Promise<RunningTier>;
  /** The file's containers, with the given labels too. */
  ourContainers(filter?: Record<string, string>): Promise<Docker.ContainerInfo[]>;
  /** Something to close after the file's tests, before the tiers stop (a listener, a queue). */
  onClose(close: () => Promise<void>): void;
}

/**
 * The set-up the worker tests on the real engine share, in one line at the top of the file, as
 * useContractServer is for the server's: `const { world, startWorker, ... } = await
 * useTierFixture("t", { networkSpares: 4 })` builds the banner image, the database, a staff
 * account and a category while the file is collected; after the file's tests it closes what was
 * handed to onClose, stops every tier, and removes the file's containers and networks.
 */
export async function useTierFixture(name: string, defaults: Partial<TierOptions> = {}): Promise<TierFixture> {
  buildBannerImage();
  const docker = new Docker();
  const prefix = uniqueName(`fs-${name}`);
  const deployment = uniqueName(name).toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 20);
  const world = await createTestWorld();
  world.services.challengeServers = createChallengeServerTier({ redisUrl: inject("redisUrl"), log: { info() {}, warn() {}, error() {} }, prefix });
  const staff = await createUser(world, { isStaff: true });
  const categoryId = (await createCategory(world)).id;
  const running: RunningTier[] = [];
  const closers: (() => Promise<void>)[] = [];

  const tierOptions = (workerId: string, overrides: Partial<TierOptions> = {}): TierOptions => ({
    db: world.services.db,
    connection: redisConnection(inject("redisUrl")),
    docker,
    workerId,
    deployment,
    bindAddress: "127.0.0.1",
    publicHost: "127.0.0.1",
    capacity: 100,
    backend: "docker",
    log: { info() {}, warn() {} },
    prefix,
    heartbeatMs: 300,
    convergeMs: 400,
    reconcileMs: 500,
    startGraceMs: 3000,
    retryFailedMs: 60_000,
    networkSpares: 0,
    ...defaults,
    ...overrides,
  });
  const ourContainers = (filter: Record<string, string> = {}) => {
    const labels = [`${LABELS.deployment}=${deployment}`, ...Object.entries(filter).map(([k, v]) => `${k}=${v}`)];
    return docker.listContainers({ all: true, filters: { label: labels } });
  };

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    for (const tier of running) await tier.stop().catch(() => undefined);
    for (const c of await ourContainers()) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
    for (const n of await docker.listNetworks({ filters: { label: [`${LABELS.deployment}=${deployment}`] } })) await docker.getNetwork(n.Id).remove().catch(() => undefined);
    await world.services.challengeServers?.close();
    await world.close();
  }, 120_000);

  return {
    docker,
    world,
    staff,
    categoryId,
    prefix,
    deployment,
    running,
    tierOptions,
    async startWorker(workerId, overrides = {}) {
      const tier = await startChallengeServerTier(tierOptions(workerId, overrides));
      running.push(tier);
      return tier;
    },
    ourContainers,
    onClose: (close) => void closers.push(close),
  };
}
