import type Docker from "dockerode";
import { type Deployer, type Endpoint, engineReason, LABELS, type ListedUnit, type Unit } from "./deployer.ts";
import { EngineResources, engineIdOf, envList, hardenedHostConfig, isSpareNetwork, pingEngine, statusOf } from "./engine.ts";

export interface EngineOptions {
  /** This deployment's label value: only units carrying it are ever listed or removed. */
  deployment: string;
  /** Host address ports are published on (127.0.0.1 for a single machine, 0.0.0.0 behind a firewall). */
  bindAddress: string;
  /** Address players are given to connect to. */
  publicHost: string;
  /** The IPv4 range bridge networks take their subnets from. */
  subnetPool?: string;
  /** The worker this engine belongs to (it owns the spare networks it makes). */
  workerId: string;
}

/** A dedicated instance (a team's, or a warm one waiting for its team) runs alone on its network. */
function isDedicated(unit: Unit): boolean {
  return unit.labels[LABELS.team] !== undefined || unit.labels[LABELS.pooled] !== undefined;
}

/** A team's own network needs room for one container; a job's for all its replicas. */
function subnetPrefix(unit: Unit): number {
  return isDedicated(unit) ? 28 : 24;
}

/** The plain Docker backend: one container per instance, placed by the tier itself. */
export class DockerDeployer implements Deployer {
  readonly backend = "docker" as const;
  readonly groupsReplicas = false;
  private readonly resources: EngineResources;

  constructor(
    private readonly docker: Docker,
    private readonly options: EngineOptions,
  ) {
    this.resources = new EngineResources(docker, options.subnetPool);
  }

  ping(): Promise<void> {
    return pingEngine(this.docker);
  }

  engineId(): Promise<string> {
    return engineIdOf(this.docker);
  }

  /**
   * The engine's `die` events of this deployment's containers, as they happen: a killed instance
   * is known at once instead of at the next health check. The stream is opened again a second
   * after it breaks (the engine restarted or was unreachable), until stopped.
   */
  watch(died: (name: string) => void): () => void {
    let stopped = false;
    let current: NodeJS.ReadableStream | null = null;
    let retry: NodeJS.Timeout | null = null;
    const again = () => {
      current = null;
      if (!stopped && !retry) retry = setTimeout(open, 1000);
    };
    const open = () => {
      retry = null;
      if (stopped) return;
      this.docker
        .getEvents({ filters: { type: ["container"], event: ["die"], label: [`${LABELS.deployment}=${this.options.deployment}`] } })
        .then((stream) => {
          if (stopped) {
            (stream as unknown as { destroy?: () => void }).destroy?.();
            return;
          }
          current = stream;
          let buffered = "";
          stream.on("data", (chunk: Buffer) => {
            buffered += chunk.toString();
            let newline;
            while ((newline = buffered.indexOf("\n")) >= 0) {
              const line = buffered.slice(0, newline).trim();
              buffered = buffered.slice(newline + 1);
              if (!line) continue;
              try {
                const event = JSON.parse(line) as { Actor?: { Attributes?: { name?: string } } };
                const name = event.Actor?.Attributes?.name;
                if (name) died(name);
              } catch {
                // Not an event line: ignored.
              }
            }
          });
          stream.on("end", again);
          stream.on("error", again);
          stream.on("close", again);
        }, again);
    };
    open();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      (current as unknown as { destroy?: () => void } | null)?.destroy?.();
    };
  }

  async list(): Promise<ListedUnit[]> {
    const containers = await this.docker.listContainers({ all: true, filters: { label: [`${LABELS.deployment}=${this.options.deployment}`] } });
    return containers.map((c) => ({ name: (c.Names[0] ?? "").replace(/^\//, ""), labels: c.Labels }));
  }

  async ensure(unit: Unit): Promise<Endpoint[]> {
    let info = await this.inspect(unit.name);
    if (info && !info.State.Running) {
      await this.remove(unit.name, false);
      info = null;
    }
    if (!info) info = await this.create(unit);
    return [this.endpoint(info, unit)];
  }

  async observe(unit: Unit): Promise<Endpoint[]> {
    const info = await this.inspect(unit.name);
    return info ? [this.endpoint(info, unit)] : [];
  }

  private endpoint(info: Docker.ContainerInspectInfo, unit: Unit): Endpoint {
    return { slot: 0, host: this.options.publicHost, port: publishedPort(info, unit.port), running: info.State.Running };
  }

  private async inspect(name: string): Promise<Docker.ContainerInspectInfo | null> {
    try {
      return await this.docker.getContainer(name).inspect();
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  private async create(unit: Unit): Promise<Docker.ContainerInspectInfo> {
    await this.resources.ensureImage(unit.image, unit.registryAuth);
    // A team's instance takes a spare network made ahead when there is one (it is then this
    // instance's alone and removed with it); otherwise its own network is made now.
    const spare = isDedicated(unit) ? this.resources.takeSpare() : null;
    if (!spare) await this.resources.ensureNetwork(unit.network, { [LABELS.deployment]: this.options.deployment }, "bridge", subnetPrefix(unit));
    const key = `${unit.port}/tcp`;
    const spec: Docker.ContainerCreateOptions = {
      name: unit.name,
      Image: unit.image,
      Env: envList(unit.env),
      Labels: unit.labels,
      ExposedPorts: { [key]: {} },
      HostConfig: {
        ...hardenedHostConfig(unit),
        NetworkMode: spare ?? unit.network,
        PortBindings: { [key]: [{ HostIp: this.options.bindAddress, HostPort: unit.hostPort ? String(unit.hostPort) : "" }] },
      },
    };
    let container: Docker.Container;
    try {
      container = await this.resources.onNetwork(spare ?? unit.network, () => this.docker.createContainer(spec));
    } catch (error) {
      const status = statusOf(error);
      if (status === 409) {
        if (spare) this.resources.returnSpare(spare);
        // Another pass created it first.
        const found = await this.inspect(unit.name);
        if (found) return found;
      }
      if (status === 404 && /network/i.test(String((error as Error).message))) {
        // The network went away (removed by hand, or a spare removed by another worker): make the unit's own.
        if (!spare) this.resources.forgetNetwork(unit.network);
        await this.resources.ensureNetwork(unit.network, { [LABELS.deployment]: this.options.deployment }, "bridge", subnetPrefix(unit));
        container = await this.docker.createContainer({ ...spec, HostConfig: { ...spec.HostConfig, NetworkMode: unit.network } });
      } else {
        if (spare) this.resources.returnSpare(spare);
        throw error;
      }
    }
    try {
      // The engine finds the container's network by name again as it starts it.
      await this.resources.onNetwork(spare ?? unit.network, () => container.start());
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      if (spare) this.resources.returnSpare(spare);
      // The team's former port was taken meanwhile: any free one will do.
      if (unit.hostPort && /port is already allocated|address already in use/i.test(engineReason(error))) return this.create({ ...unit, hostPort: undefined });
      throw error;
    }
    return container.inspect();
  }

  prepare(count: number, live: () => Promise<(workerId: string) => boolean>, paused: () => boolean): Promise<void> {
    return this.resources.prepareSpares({ count, deployment: this.options.deployment, workerId: this.options.workerId, live, paused });
  }

  async remove(name: string, cleanNetwork = true): Promise<void> {
    const info = await this.inspect(name);
    if (!info) return;
    try {
      await this.docker.getContainer(name).remove({ force: true });
    } catch (error) {
      const status = statusOf(error);
      if (status !== 404 && status !== 409) throw error;
    }
    // A spare network served this container alone: it goes with it, even when the unit is replaced.
    const network = info.HostConfig.NetworkMode ?? "";
    if (cleanNetwork || isSpareNetwork(network)) await this.resources.removeNetworkIfUnused(network);
  }

  async restart(name: string): Promise<void> {
    await this.remove(name, false);
  }
}

function publishedPort(info: Docker.ContainerInspectInfo, port: number): number | null {
  const bindings = info.NetworkSettings.Ports?.[`${port}/tcp`];
  const hostPort = bindings?.[0]?.HostPort;
  return hostPort ? Number(hostPort) : null;
}
