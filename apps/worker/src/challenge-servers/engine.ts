import { randomBytes, randomInt } from "node:crypto";
import type Docker from "dockerode";
import { engineReason, LABELS, type Unit } from "./deployer.ts";

const PULL_TIMEOUT_MS = 5 * 60_000;

/** How many free subnets an allocation may pass over at random (see freeSubnet). */
const SUBNET_SKIP = 8;

/** Where per-job (/24) and per-team (/28) bridge networks take their subnets from. */
export const DEFAULT_SUBNET_POOL = "10.213.0.0/16";

interface SubnetPool {
  cidr: string;
  base: number;
  bits: number;
}

function ipToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");
}

export function parsePool(cidr: string): SubnetPool {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(cidr.trim());
  if (!match) throw new Error(`${cidr} is not an IPv4 range like 10.213.0.0/16`);
  const bits = Number(match[2]);
  const size = 2 ** (32 - bits);
  return { cidr, base: Math.floor(ipToInt(match[1]!) / size) * size, bits };
}

/**
 * The first subnet of the given prefix length in the pool that overlaps none of `used`, passing
 * over `skip` free ones first (workers sharing an engine skip a few at random, so they rarely pick
 * the same one at the same moment, while the pool stays packed from its start).
 */
export function freeSubnet(pool: SubnetPool, prefix: number, used: readonly string[], skip = 0): string | null {
  const taken = used.map((cidr) => {
    const [ip, bits] = cidr.split("/");
    const size = 2 ** (32 - Number(bits));
    const start = Math.floor(ipToInt(ip!) / size) * size;
    return [start, start + size] as const;
  });
  const size = 2 ** (32 - prefix);
  const end = pool.base + 2 ** (32 - pool.bits);
  let first: string | null = null;
  let passed = 0;
  for (let start = pool.base; start + size <= end; start += size) {
    if (taken.some(([a, b]) => start < b && a < start + size)) continue;
    const subnet = `${intToIp(start)}/${prefix}`;
    first ??= subnet;
    if (passed++ === skip) return subnet;
  }
  return first;
}

const SPARE_MARK = "spare-";

/** Whether a network is a spare made ahead for one dedicated instance. */
export function isSpareNetwork(name: string): boolean {
  return new RegExp(`^fs-.*-${SPARE_MARK}[0-9a-f]{12}$`).test(name);
}

/** Docker's status code on an engine error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  return error && typeof error === "object" ? (error as { statusCode?: number }).statusCode : undefined;
}

/** What a worker's spare networks are brought to: see `Deployer.prepare`. */
interface SpareOptions {
  count: number;
  deployment: string;
  workerId: string;
  live: () => Promise<(workerId: string) => boolean>;
  paused: () => boolean;
}

/**
 * Image and network upkeep shared by both backends: images are pulled once per process at a time
 * (with the job's registry credentials), networks created once and found again after a restart.
 */
export class EngineResources {
  private readonly pulls = new Map<string, Promise<void>>();
  private readonly networks = new Map<string, Promise<void>>();

  private subnetLock: Promise<void> = Promise.resolve();
  /** Subnets on the engine when last listed (null: list again), and those this process took since. */
  private engineSubnets: string[] | null = null;
  private readonly reserved = new Set<string>();
  private readonly subnets = new Map<string, string>();
  private readonly pool: SubnetPool;
  /** This worker's unused spare networks (null until first looked up on the engine). */
  private spareNames: string[] | null = null;
  /** Settles (never rejects) once the last spare top-up asked for is over; null when none is. */
  private preparing: Promise<void> | null = null;
  /** The top-up waiting for the one in progress; later calls join it with their own options. */
  private nextPrepare: { options: SpareOptions; done: Promise<void> } | null = null;

  constructor(
    private readonly docker: Docker,
    subnetPool = DEFAULT_SUBNET_POOL,
  ) {
    this.pool = parsePool(subnetPool);
  }

  ensureImage(image: string, auth: Unit["registryAuth"]): Promise<void> {
    let pending = this.pulls.get(image);
    if (!pending) {
      pending = this.pullIfMissing(image, auth).finally(() => this.pulls.delete(image));
      this.pulls.set(image, pending);
    }
    return pending;
  }

  private async pullIfMissing(image: string, auth: Unit["registryAuth"]): Promise<void> {
    try {
      await this.docker.getImage(image).inspect();
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    const registry = image.includes("/") && /[.:]|^localhost$/.test(image.split("/")[0] ?? "") ? image.split("/")[0] : undefined;
    const authconfig = auth ? { username: auth.username, password: auth.password, ...(registry && { serveraddress: registry }) } : undefined;
    let stream: NodeJS.ReadableStream;
    try {
      stream = (await this.docker.pull(image, authconfig ? { authconfig } : {})) as NodeJS.ReadableStream;
    } catch (error) {
      throw new Error(`Could not pull ${image}: ${engineReason(error)}`, { cause: error });
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Pulling ${image} took longer than ${PULL_TIMEOUT_MS / 1000} s`)), PULL_TIMEOUT_MS);
      this.docker.modem.followProgress(stream, (error: Error | null, output: { error?: string; errorDetail?: { message?: string } }[]) => {
        clearTimeout(timer);
        const failed = output?.find((event) => event.error ?? event.errorDetail);
        if (error || failed) reject(new Error(`Could not pull ${image}: ${failed?.errorDetail?.message ?? failed?.error ?? engineReason(error)}`));
        else resolve();
      });
    });
  }

  /** A bridge network of our own, labelled like the containers on it. */
  /** `prefix`: the bridge subnet's size, /24 for a job's replicas and /28 for one team's instance. */
  ensureNetwork(name: string, labels: Record<string, string>, driver: "bridge" | "overlay", prefix = 24): Promise<void> {
    let pending = this.networks.get(name);
    if (!pending) {
      pending = this.createNetwork(name, labels, driver, prefix).catch((error: unknown) => {
        this.networks.delete(name);
        throw error;
      });
      this.networks.set(name, pending);
    }
    return pending;
  }

  forgetNetwork(name: string): void {
    this.networks.delete(name);
  }

  private async createNetwork(name: string, labels: Record<string, string>, driver: "bridge" | "overlay", prefix: number): Promise<void> {
    if (driver === "overlay") {
      // Swarm's overlay pool (10.0.0.0/8 in /24s by default) has room for every job and team.
      if ((await this.docker.listNetworks({ filters: { name: [name] } })).some((n) => n.Name === name)) return;
      try {
        await this.docker.createNetwork({ Name: name, Driver: driver, Labels: labels, CheckDuplicate: true, Attachable: true });
      } catch (error) {
        if (statusOf(error) !== 409) throw error;
      }
      return;
    }
    // Bridge networks get a small subnet of our own pool: Docker's default pools hold only about
    // thirty networks, far fewer than one per team. Subnets are chosen one at a time in this
    // process (cheap, from what the engine had plus what we took since) and the networks created
    // in parallel; a subnet another worker on the same engine took first is retried.
    for (let attempt = 0; attempt < 10; attempt++) {
      const subnet = await this.allocate(prefix);
      try {
        await this.docker.createNetwork({ Name: name, Driver: "bridge", Labels: labels, CheckDuplicate: true, IPAM: { Driver: "default", Config: [{ Subnet: subnet }] } });
        this.subnets.set(name, subnet);
        return;
      } catch (error) {
        this.reserved.delete(subnet);
        if (statusOf(error) === 409) return;
        if (!/overlap/i.test(String((error as Error).message))) throw error;
        this.engineSubnets = null;
      }
    }
    throw new Error(`Could not allocate a subnet for network ${name}`);
  }

  private allocate(prefix: number): Promise<string> {
    const run = this.subnetLock.then(async () => {
      this.engineSubnets ??= (await this.docker.listNetworks()).flatMap((n) => (n.IPAM?.Config ?? []).map((c) => c.Subnet ?? "")).filter((c) => c.includes("."));
      const subnet = freeSubnet(this.pool, prefix, [...this.engineSubnets, ...this.reserved], randomInt(SUBNET_SKIP));
      if (!subnet) throw new Error(`No free subnet left in ${this.pool.cidr}; set INSTANCE_SUBNET_POOL to a larger range`);
      this.reserved.add(subnet);
      return subnet;
    });
    this.subnetLock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** A spare network for one dedicated instance, if one is ready; it is this instance's alone. */
  takeSpare(): string | null {
    return this.spareNames?.shift() ?? null;
  }

  /** Gives back a spare network whose container could not be made (it holds nothing). */
  returnSpare(name: string): void {
    this.spareNames?.push(name);
  }

  /**
   * Keeps `count` spare /28 networks of this worker ready, so a team's instance does not wait for
   * its network: the engine makes networks one at a time, slower than it starts containers. Each
   * spare serves one instance and is removed with it. Spares are made only while `paused()` is
   * false (starting instances comes first); unused spares of workers that are gone are removed.
   */
  prepareSpares(options: SpareOptions): Promise<void> {
    // One at a time: a call waits for the one in progress, then brings the spares to its count.
    // Calls made while one waits join it with their options (the latest win): a converge pass asks
    // every few hundred milliseconds, and on a busy engine a sweep can take longer than that.
    if (this.nextPrepare) {
      this.nextPrepare.options = options;
      return this.nextPrepare.done;
    }
    const next: { options: SpareOptions; done: Promise<void> } = { options, done: Promise.resolve() };
    next.done = (this.preparing ?? Promise.resolve()).then(() => {
      if (this.nextPrepare === next) this.nextPrepare = null;
      return this.topUpSpares(next.options);
    });
    this.nextPrepare = next;
    const settled: Promise<void> = next.done
      .catch(() => undefined)
      .then(() => {
        if (this.preparing === settled) this.preparing = null;
      });
    this.preparing = settled;
    return next.done;
  }

  private async topUpSpares({ count, deployment, workerId, live, paused }: SpareOptions): Promise<void> {
    if (!paused() || this.spareNames === null) {
      // Sweep: the unused spares of workers that are gone are removed (a worker that stops cleanly removes its own).
      const networks = await this.docker.listNetworks({ filters: { label: [`${LABELS.deployment}=${deployment}`, LABELS.spare] } });
      const containers = await this.docker.listContainers({ all: true, filters: { label: [`${LABELS.deployment}=${deployment}`] } });
      const used = new Set(containers.map((c) => c.HostConfig?.NetworkMode ?? ""));
      // Who is live is read after the listing: a worker heartbeats before it makes spares, so one
      // whose spares are listed here reads as live unless it has since gone quiet.
      const isLive = await live();
      for (const network of networks) {
        const owner = network.Labels?.[LABELS.spare] ?? "";
        if (owner !== workerId && !isLive(owner) && !used.has(network.Name)) await this.removeNetworkIfUnused(network.Name);
      }
      // Spares another worker removed (this one went quiet for a while) are made again.
      const listed = new Set(networks.map((n) => n.Name));
      this.spareNames = this.spareNames?.filter((name) => listed.has(name)) ?? networks.filter((n) => n.Labels?.[LABELS.spare] === workerId && !used.has(n.Name)).map((n) => n.Name);
    }
    while (this.spareNames.length > count) await this.removeNetworkIfUnused(this.spareNames.pop()!);
    const labels = { [LABELS.deployment]: deployment, [LABELS.spare]: workerId };
    while (this.spareNames.length < count && !paused()) {
      const name = `fs-${deployment}-${SPARE_MARK}${randomBytes(6).toString("hex")}`;
      await this.ensureNetwork(name, labels, "bridge", 28);
      this.spareNames.push(name);
    }
  }

  /** Removes a network once nothing is attached to it; a network still in use stays. */
  async removeNetworkIfUnused(name: string): Promise<void> {
    try {
      const info = (await this.docker.getNetwork(name).inspect()) as { Containers?: Record<string, unknown> };
      if (info.Containers && Object.keys(info.Containers).length > 0) return;
      await this.docker.getNetwork(name).remove();
      this.networks.delete(name);
      const subnet = this.subnets.get(name);
      if (subnet) {
        this.subnets.delete(name);
        this.reserved.delete(subnet);
        this.engineSubnets = this.engineSubnets?.filter((s) => s !== subnet) ?? null;
      }
    } catch (error) {
      const status = statusOf(error);
      if (status !== 404 && status !== 403 && status !== 409) throw error;
    }
  }
}

const PING_TIMEOUT_MS = 5000;

/** Resolves when the engine answers a ping within five seconds; throws otherwise. */
export async function pingEngine(docker: Docker): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the engine did not answer within ${PING_TIMEOUT_MS / 1000} s`)), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([docker.ping(), silent]);
  } finally {
    clearTimeout(timer);
  }
}

/** The engine's own id (kept in its data root, so the same after a restart of the engine). */
export async function engineIdOf(docker: Docker): Promise<string> {
  const info = (await docker.info()) as { ID?: string };
  return info.ID ?? "";
}

/** The hardening every instance gets, whatever the backend: Docker's HostConfig form. */
export function hardenedHostConfig(unit: Unit): Docker.HostConfig {
  return {
    CapDrop: ["ALL"],
    SecurityOpt: ["no-new-privileges"],
    ReadonlyRootfs: !unit.writable,
    Tmpfs: { "/tmp": "rw,nosuid,nodev,noexec,size=16m" },
    PidsLimit: unit.pidsLimit,
    Memory: unit.memory,
    MemorySwap: unit.memory,
    NanoCpus: Math.round(unit.cpus * 1e9),
    Privileged: false,
    Binds: [],
    NetworkMode: unit.network,
  };
}

export function envList(env: Record<string, string>): string[] {
  return Object.entries(env).map(([key, value]) => `${key}=${value}`);
}
