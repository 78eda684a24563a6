import type Docker from "dockerode";
import { engineReason, type Unit } from "./deployer.ts";

const PULL_TIMEOUT_MS = 5 * 60_000;

/** Docker's status code on an engine error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  return error && typeof error === "object" ? (error as { statusCode?: number }).statusCode : undefined;
}

/**
 * Image and network upkeep shared by both backends: images are pulled once per process at a time
 * (with the job's registry credentials), networks created once and found again after a restart.
 */
export class EngineResources {
  private readonly pulls = new Map<string, Promise<void>>();
  private readonly networks = new Map<string, Promise<void>>();

  constructor(private readonly docker: Docker) {}

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
  ensureNetwork(name: string, labels: Record<string, string>, driver: "bridge" | "overlay"): Promise<void> {
    let pending = this.networks.get(name);
    if (!pending) {
      pending = this.createNetwork(name, labels, driver).catch((error: unknown) => {
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

  private async createNetwork(name: string, labels: Record<string, string>, driver: "bridge" | "overlay"): Promise<void> {
    const existing = await this.docker.listNetworks({ filters: { name: [name] } });
    if (existing.some((n) => n.Name === name)) return;
    try {
      await this.docker.createNetwork({ Name: name, Driver: driver, Labels: labels, CheckDuplicate: true, ...(driver === "overlay" && { Attachable: true }) });
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
  }

  /** Removes a network once nothing is attached to it; a network still in use stays. */
  async removeNetworkIfUnused(name: string): Promise<void> {
    try {
      const info = (await this.docker.getNetwork(name).inspect()) as { Containers?: Record<string, unknown> };
      if (info.Containers && Object.keys(info.Containers).length > 0) return;
      await this.docker.getNetwork(name).remove();
      this.networks.delete(name);
    } catch (error) {
      const status = statusOf(error);
      if (status !== 404 && status !== 403 && status !== 409) throw error;
    }
  }
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
