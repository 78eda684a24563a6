import os from "node:os";
import { z } from "zod";

const EnvSchema = z.object({
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "must be a URL like redis://127.0.0.1:6379" }),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a URL like postgresql://user:pass@host:5432/db" }),
  DOCKER_HOST: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * This worker's name in the tier; unique per worker. Unset: a name of its own, unless a worker
   * stopped cleanly on the same engine within WORKER_RESTART_GRACE, whose name (and instances) it takes over.
   */
  WORKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, dots, dashes and underscores, at most 64")
    .optional(),
  /** Seconds a stopped worker's containers keep running for a worker restarting on its engine to adopt; 0: moved at once. */
  WORKER_RESTART_GRACE: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Seconds the engine may stay unreachable before this worker's instances are re-created on other workers. */
  ENGINE_LOSS_GRACE: z.coerce.number().int().min(1).max(3600).default(10),
  /** Keeps this installation's containers apart from others on the same engine. */
  DEPLOYMENT_ID: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,31}$/, "lower-case letters, digits, dots, dashes and underscores, at most 32").optional(),
  /** The host address instance ports are published on. */
  INSTANCE_BIND: z.union([z.ipv4(), z.ipv6()]).default("127.0.0.1"),
  /** The address players are told to connect to (default: the bind address, or this host's name when binding all). */
  INSTANCE_HOST: z.string().min(1).max(253).optional(),
  /** The IPv4 range the networks of jobs (/24 each) and teams (/28 each) are carved from. */
  INSTANCE_SUBNET_POOL: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/, "an IPv4 range such as 10.213.0.0/16").default("10.213.0.0/16"),
  /** Where health checks connect to published ports (default: the bind address, or loopback when binding all). */
  INSTANCE_PROBE_HOST: z.string().min(1).max(253).optional(),
  WORKER_CAPACITY: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Team networks (/28) kept ready while a job is dedicated, so a team's instance does not wait for one (0: none). */
  INSTANCE_NETWORK_SPARES: z.coerce.number().int().min(0).max(1024).default(64),
  /** Containers this worker creates or replaces at once on its engine. */
  DEPLOY_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  CHALLENGE_BACKEND: z.enum(["auto", "docker", "swarm"]).default("auto"),
  /** A file touched while the worker is healthy, for a container health check. */
  HEALTH_FILE: z.string().min(1).optional(),
  /**
   * A listener of its own for Prometheus' /metrics; unset: none. 0: a free port the system picks,
   * named in the start-up log ("Metrics for Prometheus at ..."), for workers sharing one host's
   * network, which cannot all take the same port: each gets one of its own at once, with no race.
   */
  METRICS_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /** off: this worker only delivers webhooks and mail. */
  CHALLENGE_SERVERS: z.enum(["on", "off"]).default("on"),
});

export type WorkerEnv = z.infer<typeof EnvSchema>;

/** The worker's settings, validated once at start-up. */
export function loadWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid settings in the environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

/** A name of this worker's own when WORKER_ID is not set. */
export function defaultWorkerId(): string {
  return `${os.hostname().replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 40) || "worker"}-${process.pid}`;
}

export function publicHostOf(env: Pick<WorkerEnv, "INSTANCE_BIND" | "INSTANCE_HOST">): string {
  if (env.INSTANCE_HOST) return env.INSTANCE_HOST;
  return env.INSTANCE_BIND === "0.0.0.0" || env.INSTANCE_BIND === "::" ? os.hostname() : env.INSTANCE_BIND;
}
