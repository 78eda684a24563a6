import type Docker from "dockerode";
import { type Deployer, type Endpoint, LABELS, type ListedUnit, type Unit } from "./deployer.ts";
import type { EngineOptions } from "./docker-deployer.ts";
import { EngineResources, engineIdOf, envList, pingEngine, statusOf } from "./engine.ts";

interface TaskInfo {
  Slot?: number;
  NodeID?: string;
  Status?: { State?: string; PortStatus?: { Ports?: { TargetPort?: number; PublishedPort?: number }[] } };
}

/**
 * The Swarm backend: a shared job's replicas are one replicated service, a dedicated instance a
 * one-replica service. Swarm keeps the copies running, restarts them and spreads them over its
 * nodes; ports are published in host mode (the ingress mesh is not available everywhere), so each
 * copy listens on a port of the node it runs on.
 */
export class SwarmDeployer implements Deployer {
  readonly backend = "swarm" as const;
  readonly groupsReplicas = true;
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

  async list(): Promise<ListedUnit[]> {
    const services = (await this.docker.listServices({ filters: { label: [`${LABELS.deployment}=${this.options.deployment}`] } })) as {
      Spec?: { Name?: string; Labels?: Record<string, string> };
    }[];
    return services.map((s) => ({ name: s.Spec?.Name ?? "", labels: s.Spec?.Labels ?? {} }));
  }

  async ensure(unit: Unit): Promise<Endpoint[]> {
    const service = await this.inspect(unit.name);
    if (!service) {
      await this.create(unit);
    } else if (service.Spec.Mode?.Replicated?.Replicas !== unit.replicas) {
      await this.docker.getService(unit.name).update({ ...service.Spec, version: service.Version.Index, Mode: { Replicated: { Replicas: unit.replicas } } });
    }
    return this.endpoints(unit);
  }

  private async inspect(name: string): Promise<{ Spec: Docker.ServiceSpec & { Mode?: { Replicated?: { Replicas?: number } } }; Version: { Index: number } } | null> {
    try {
      return (await this.docker.getService(name).inspect()) as never;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  private async create(unit: Unit): Promise<void> {
    await this.resources.ensureImage(unit.image, unit.registryAuth);
    await this.resources.ensureNetwork(unit.network, { [LABELS.deployment]: this.options.deployment }, "overlay");
    const spec = {
      Name: unit.name,
      Labels: unit.labels,
      TaskTemplate: {
        ContainerSpec: {
          Image: unit.image,
          Env: envList(unit.env),
          Labels: unit.labels,
          ReadOnly: !unit.writable,
          CapabilityDrop: ["ALL"],
          Privileges: { NoNewPrivileges: true },
          Mounts: [{ Type: "tmpfs", Target: "/tmp", TmpfsOptions: { SizeBytes: 16 * 1024 * 1024 } }],
        },
        Resources: { Limits: { NanoCPUs: Math.round(unit.cpus * 1e9), MemoryBytes: unit.memory, Pids: unit.pidsLimit } },
        RestartPolicy: { Condition: "any", Delay: 1_000_000_000 },
        Networks: [{ Target: unit.network }],
      },
      Mode: { Replicated: { Replicas: unit.replicas } },
      EndpointSpec: { Ports: [{ Protocol: "tcp", TargetPort: unit.port, PublishMode: "host" }] },
    };
    const auth = unit.registryAuth ? { username: unit.registryAuth.username, password: unit.registryAuth.password } : undefined;
    try {
      await this.resources.onNetwork(unit.network, () => this.docker.createService(auth ?? {}, spec as never));
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
  }

  observe(unit: Unit): Promise<Endpoint[]> {
    return this.endpoints(unit);
  }

  private async endpoints(unit: Unit): Promise<Endpoint[]> {
    const tasks = (await this.docker.listTasks({ filters: { service: [unit.name], "desired-state": ["running"] } })) as TaskInfo[];
    const nodes = (await this.docker.listNodes()) as { ID: string; Status?: { Addr?: string } }[];
    const address = new Map(nodes.map((n) => [n.ID, n.Status?.Addr ?? ""]));
    const single = nodes.length === 1;
    const endpoints: Endpoint[] = [];
    for (const task of tasks) {
      if (task.Slot === undefined) continue;
      const published = task.Status?.PortStatus?.Ports?.find((p) => p.TargetPort === unit.port)?.PublishedPort;
      const nodeAddress = address.get(task.NodeID ?? "") ?? "";
      endpoints.push({
        slot: task.Slot - 1,
        host: single ? this.options.publicHost : nodeAddress,
        port: published ?? null,
        running: task.Status?.State === "running",
        ...(!single && { probe: nodeAddress }),
      });
    }
    return endpoints;
  }

  async remove(name: string): Promise<void> {
    const service = await this.inspect(name);
    if (!service) return;
    try {
      await this.docker.getService(name).remove();
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    const network = (service.Spec.TaskTemplate as { Networks?: { Target?: string }[] } | undefined)?.Networks?.[0]?.Target;
    if (network) await this.resources.removeNetworkIfUnused(network);
  }

  /** Swarm replaces copies itself; an unhealthy one is replaced by forcing a rolling update. */
  async restart(name: string): Promise<void> {
    const service = await this.inspect(name);
    if (!service) return;
    const template = (service.Spec.TaskTemplate ?? {}) as { ForceUpdate?: number };
    await this.docker.getService(name).update({ ...service.Spec, version: service.Version.Index, TaskTemplate: { ...template, ForceUpdate: (template.ForceUpdate ?? 0) + 1 } });
  }
}
