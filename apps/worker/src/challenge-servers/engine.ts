import { createHash, randomBytes, randomInt } from "node:crypto";
import type Docker from "dockerode";
import { engineReason, LABELS, type Unit } from "./deployer.ts";

const PULL_TIMEOUT_MS = 5 * 60_000;

/** How long a worker refused a subnet waits for the network holding it to be listed. */
const HOLDER_WAIT_MS = 10_000;

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

/** The addresses a subnet spans, as [first, past the last). */
function rangeOf(cidr: string): readonly [number, number] {
  const [ip, bits] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToInt(ip!) / size) * size;
  return [start, start + size];
}

/** Whether two subnets share an address. */
function overlaps(a: string, b: string): boolean {
  const [a0, a1] = rangeOf(a);
  const [b0, b1] = rangeOf(b);
  return a0 < b1 && b0 < a1;
}

/**
 * The first subnet of the given prefix length in the pool that overlaps none of `used`, passing
 * over `skip` free ones first (workers sharing an engine skip a few at random, so they rarely pick
 * the same one at the same moment, while the pool stays packed from its start). `from` starts the
 * search at that subnet of the pool instead of its first, going round to the start after the end.
 */
export function freeSubnet(pool: SubnetPool, prefix: number, used: readonly string[], skip = 0, from = 0): string | null {
  const taken = used.map(rangeOf);
  const size = 2 ** (32 - prefix);
  const slots = Math.floor(2 ** (32 - pool.bits) / size);
  let first: string | null = null;
  let passed = 0;
  for (let i = 0; i < slots; i++) {
    const start = pool.base + ((from + i) % slots) * size;
    if (taken.some(([a, b]) => start < b && a < start + size)) continue;
    const subnet = `${intToIp(start)}/${prefix}`;
    first ??= subnet;
    if (passed++ === skip) return subnet;
  }
  return first;
}

/**
 * Where the search for a shared network's subnet starts: the same place in every worker, taken
 * from the network's name, so workers making one job's network at the same moment ask the engine
 * for the same subnet and the engine, which never gives one subnet twice, keeps one of them.
 */
export function subnetSlotOf(name: string, pool: SubnetPool, prefix: number): number {
  const slots = Math.floor(2 ** (32 - pool.bits) / 2 ** (32 - prefix));
  return createHash("sha256").update(name).digest().readUInt32BE(0) % Math.max(1, slots);
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
    // Another worker on this engine may have made it (a job's replicas are spread over workers).
    if ((await this.networksNamed(name)).length > 0) {
      await this.settleNetwork(name);
      return;
    }
    if (driver === "overlay") {
      // Swarm's overlay pool (10.0.0.0/8 in /24s by default) has room for every job and team.
      try {
        await this.docker.createNetwork({ Name: name, Driver: driver, Labels: labels, CheckDuplicate: true, Attachable: true });
      } catch (error) {
        if (statusOf(error) !== 409) throw error;
      }
      await this.settleNetwork(name);
      return;
    }
    // Bridge networks get a small subnet of our own pool: Docker's default pools hold only about
    // thirty networks, far fewer than one per team. Subnets are chosen one at a time in this
    // process (cheap, from what the engine had plus what we took since) and the networks created
    // in parallel; a subnet another worker on the same engine took first is retried.
    //
    // The engine checks a network's name only as its create starts, so workers making a job's
    // network at the same moment would make twins of one name; but it never gives one subnet to
    // two networks. A job's network (a /24, shared by the job's replicas on every worker) is
    // therefore asked for at a subnet every worker picks alike: the first free one from a place
    // its name decides, by what the engine has now. A worker refused that subnet waits until the
    // network holding it shows, and takes it when it is this name's.
    const shared = prefix === 24;
    for (let attempt = 0; attempt < 10; attempt++) {
      const subnet = await this.allocate(prefix, shared ? subnetSlotOf(name, this.pool, prefix) : null);
      let created: Docker.Network;
      try {
        created = await this.docker.createNetwork({ Name: name, Driver: "bridge", Labels: labels, CheckDuplicate: true, IPAM: { Driver: "default", Config: [{ Subnet: subnet }] } });
      } catch (error) {
        this.reserved.delete(subnet);
        if (statusOf(error) === 409) {
          await this.settleNetwork(name);
          return;
        }
        if (!/overlap/i.test(String((error as Error).message))) throw error;
        this.engineSubnets = null;
        // Another worker on this engine may have made the network meanwhile (with that subnet).
        if ((shared && (await this.holderOf(subnet)) === name) || (await this.networksNamed(name)).length > 0) {
          await this.settleNetwork(name);
          return;
        }
        continue;
      }
      this.subnets.set(name, subnet);
      if ((await this.settleNetwork(name)) !== created.id) {
        // Another worker's network of this name is the one kept: ours was removed, and its subnet is free.
        this.subnets.delete(name);
        this.reserved.delete(subnet);
        this.engineSubnets = null;
      }
      return;
    }
    throw new Error(`Could not allocate a subnet for network ${name}`);
  }

  /**
   * The name of the network holding a subnet the engine refused as taken. A network being made
   * holds its subnet a moment before it is listed (longer on a busy engine), so it is looked for
   * again until it shows, ten seconds at most (null: none showed, its create failed).
   */
  private async holderOf(subnet: string): Promise<string | null> {
    const deadline = Date.now() + HOLDER_WAIT_MS;
    for (;;) {
      const networks = await this.docker.listNetworks();
      const holder = networks.find((n) => (n.IPAM?.Config ?? []).some((c) => c.Subnet !== undefined && c.Subnet.includes(".") && overlaps(c.Subnet, subnet)));
      if (holder) return holder.Name;
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The engine's networks of exactly this name (its name filter also matches parts of names). */
  private async networksNamed(name: string): Promise<Docker.NetworkInspectInfo[]> {
    return (await this.docker.listNetworks({ filters: { name: [name] } })).filter((n) => n.Name === name);
  }

  /**
   * Leaves one network of this name and answers its id. The engine checks a name only as a create
   * starts, so workers on one engine making a job's network at the same moment can make several;
   * while they exist, a container asking for the network by name is refused as "ambiguous". Every
   * worker keeps the same one (one with containers on it, else the lowest id) and removes the
   * others while they are empty. No container can join a network by name while it has a twin, so
   * at most one of them is ever in use.
   */
  private async settleNetwork(name: string): Promise<string | null> {
    const found = await this.networksNamed(name);
    if (found.length <= 1) return found[0]?.Id ?? null;
    const seen: { id: string; used: boolean }[] = [];
    for (const network of found) {
      const used = await this.containersOn(network.Id);
      if (used !== null) seen.push({ id: network.Id, used: used > 0 });
    }
    seen.sort((a, b) => Number(b.used) - Number(a.used) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const twin of seen.slice(1)) if (!twin.used) await this.removeEmpty(twin.id);
    return seen[0]?.id ?? null;
  }

  /**
   * Runs a create that names the network (a container on it, a service attached to it); when the
   * engine refuses the name as ambiguous (twins made at the same moment, see settleNetwork), one is
   * kept and the create tried again, three times at most.
   */
  async onNetwork<T>(network: string, create: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await create();
      } catch (error) {
        if (!isAmbiguous(error) || attempt === 3) throw error;
        await this.settleNetwork(network);
      }
    }
  }

  /** How many containers are on a network (null: it is gone). */
  private async containersOn(idOrName: string): Promise<number | null> {
    try {
      const info = (await this.docker.getNetwork(idOrName).inspect()) as { Containers?: Record<string, unknown> };
      return Object.keys(info.Containers ?? {}).length;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /** Removes a network when nothing is on it; one in use or gone stays as it is. */
  private async removeEmpty(idOrName: string): Promise<boolean> {
    try {
      if ((await this.containersOn(idOrName)) !== 0) return false;
      await this.docker.getNetwork(idOrName).remove();
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status !== 404 && status !== 403 && status !== 409) throw error;
      return false;
    }
  }

  /**
   * A subnet for a new network. `from` (a shared network's place, see subnetSlotOf) asks for the
   * first subnet free on the engine now from there, the same as every other worker would pick;
   * without it, one near the pool's start free of what this process took too, a few passed over at
   * random.
   */
  private allocate(prefix: number, from: number | null): Promise<string> {
    const run = this.subnetLock.then(async () => {
      if (from !== null) this.engineSubnets = null;
      this.engineSubnets ??= (await this.docker.listNetworks()).flatMap((n) => (n.IPAM?.Config ?? []).map((c) => c.Subnet ?? "")).filter((c) => c.includes("."));
      const subnet =
        from === null ? freeSubnet(this.pool, prefix, [...this.engineSubnets, ...this.reserved], randomInt(SUBNET_SKIP)) : freeSubnet(this.pool, prefix, this.engineSubnets, 0, from);
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
    let removed: boolean;
    try {
      removed = await this.removeEmpty(name);
    } catch (error) {
      if (!isAmbiguous(error)) throw error;
      // Twins of one name (see settleNetwork): each goes while it is empty.
      removed = false;
      for (const network of await this.networksNamed(name)) removed = (await this.removeEmpty(network.Id)) || removed;
    }
    if (!removed) return;
    this.networks.delete(name);
    const subnet = this.subnets.get(name);
    if (subnet) {
      this.subnets.delete(name);
      this.reserved.delete(subnet);
      this.engineSubnets = this.engineSubnets?.filter((s) => s !== subnet) ?? null;
    }
  }
}

/** The engine refused a name that several networks carry (see EngineResources.settleNetwork). */
function isAmbiguous(error: unknown): boolean {
  return statusOf(error) === 400 && /ambiguous/i.test(String((error as Error).message));
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
