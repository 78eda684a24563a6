/**
 * What a worker asks of the engine it owns. One interface hides which backend runs the
 * containers: a plain Docker engine (one container per instance, placed by us) or a Docker Swarm
 * (services that Swarm keeps running and spreads over its nodes). A Kubernetes backend would be a
 * third implementation of the same five calls.
 */
export interface Unit {
  /** Unique per deployment; changing the spec or the revision changes the name. */
  name: string;
  labels: Record<string, string>;
  image: string;
  port: number;
  env: Record<string, string>;
  memory: number;
  cpus: number;
  writable: boolean;
  pidsLimit: number;
  /** How many copies the unit runs (always 1 on the plain Docker backend). */
  replicas: number;
  /** The job's own network (per team for dedicated instances). */
  network: string;
  registryAuth: { username: string; password: string } | null;
  /**
   * The host port the unit's copy had before (a replacement keeps it where the engine allows, so a
   * team's address stays the same); unset: any free port.
   */
  hostPort?: number;
}

/** Where one copy of a unit listens. `slot` counts from 0. */
export interface Endpoint {
  slot: number;
  host: string;
  port: number | null;
  running: boolean;
  /** Where the worker probes it, when not at its own publish address (another Swarm node). */
  probe?: string;
}

export interface ListedUnit {
  name: string;
  labels: Record<string, string>;
}

export interface Deployer {
  readonly backend: "docker" | "swarm";
  /** Whether a shared job's replicas run as one unit with `replicas` copies (Swarm services). */
  readonly groupsReplicas: boolean;
  /** Every unit of this deployment on the engine. */
  list(): Promise<ListedUnit[]>;
  /**
   * Makes the unit run (pulling its image with the registry credentials when missing; replacing
   * copies that stopped) and reports its endpoints. Idempotent.
   */
  ensure(unit: Unit): Promise<Endpoint[]>;
  /** Reports the unit's endpoints as they are, changing nothing (none when it is missing). */
  observe(unit: Unit): Promise<Endpoint[]>;
  /** Removes a unit and, when nothing else uses it, its network. Missing units are fine. */
  remove(name: string): Promise<void>;
  /** Replaces one copy of a unit that is running but unhealthy. */
  restart(name: string, slot: number): Promise<void>;
  /**
   * Keeps `count` spare networks ready for dedicated instances (0: removes this worker's spares),
   * making them while `paused()` is false, and removes unused spares of workers that are not live.
   * `live()` is asked when the spares are swept, not before: a worker started since the caller
   * last looked must not have its new spares taken for a dead worker's.
   * Optional: backends whose networks are cheap to make on demand leave it out.
   */
  prepare?(count: number, live: () => Promise<(workerId: string) => boolean>, paused: () => boolean): Promise<void>;
  /** Answers when the engine does (within a few seconds); throws otherwise. */
  ping(): Promise<void>;
  /** The engine's own id, the same for every worker on it and across their restarts. */
  engineId(): Promise<string>;
  /**
   * Follows the engine's events and calls `died` with a unit's name as soon as one of its copies
   * stops, reconnecting when the stream breaks. Returns a function that stops following.
   * Optional: backends that replace copies themselves (Swarm) leave it out.
   */
  watch?(died: (name: string) => void): () => void;
}

/** Labels on everything the tier creates, so reconciling by labels never touches anything else. */
export const LABELS = {
  deployment: "org.flagship.deployment",
  worker: "org.flagship.worker",
  job: "org.flagship.job",
  instance: "org.flagship.instance",
  generation: "org.flagship.generation",
  team: "org.flagship.team",
  slot: "org.flagship.slot",
  /**
   * On a dedicated job's warm instance, started ahead for the team that claims it. Labels stay as
   * created, so a claimed warm instance keeps it and has no team label; the database says whose it is.
   */
  pooled: "org.flagship.pooled",
  /** On spare networks made ahead for dedicated instances: the worker that made them. */
  spare: "org.flagship.spare",
} as const;

/**
 * Whether an error means the engine could not be reached at all (its socket missing, refused, or
 * silent), as opposed to the engine answering with a refusal: a blip the worker waits out.
 */
export function engineUnreachable(error: unknown): boolean {
  const code = error && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string" && ["ECONNREFUSED", "ENOENT", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"].includes(code)) return true;
  return /connect (ECONNREFUSED|ENOENT)|socket hang up|engine did not answer/i.test(String((error as { message?: unknown } | null)?.message ?? ""));
}

/** An engine error in words an organiser can act on ("pull access denied for ...", "connect ECONNREFUSED ..."). */
export function engineReason(error: unknown): string {
  if (error && typeof error === "object") {
    const json = (error as { json?: { message?: unknown } }).json;
    if (json && typeof json.message === "string") return json.message.trim();
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string") return message.replace(/^\(HTTP code \d+\)\s*/, "").trim();
  }
  return String(error);
}
