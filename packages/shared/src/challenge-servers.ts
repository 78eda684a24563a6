import { z } from "zod";

/** The job adder's defaults (staff spec) and our extensions' defaults. */
export const JOB_DEFAULTS = {
  replicas: 5,
  memory: 1_073_741_824,
  cpus: 0.2,
  lifetime: 7200,
  /** Warm dedicated instances kept ahead of requests: none unless staff ask (they use memory). */
  warm: 0,
  pidsLimit: 64,
  /** Concurrent dedicated instances one team may hold across all jobs. */
  teamInstanceLimit: 3,
} as const;

export const JOB_LIMITS = {
  replicas: { min: 1, max: 100 },
  memory: { min: 6 * 1024 * 1024, max: 64 * 1024 ** 3 },
  cpus: { min: 0.01, max: 64 },
  lifetime: { min: 60, max: 7 * 24 * 3600 },
  warm: { min: 0, max: 200 },
  envEntries: 64,
} as const;

/**
 * Numbers typed into form inputs arrive as strings from RACTF's client ("5", "0.2"); read them
 * as the contract's input rule says. "", "1e3" and words stay invalid.
 */
const numeric = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value), schema);
const boolish = z.preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean());

/**
 * A job name is its cserv_name, kept exactly as staff give it: any 1-64 printable characters (as
 * upstream, `my_chall` and `Web 1` are fine). Engine names are derived from it (`jobEngineKey`).
 */
export const ZJobName = z
  .string()
  .min(1, "Enter a name.")
  .max(64, "Use at most 64 characters.")
  .regex(/^[^\p{Cc}\p{Cs}\u2028\u2029]+$/u, "Use printable characters only (no line breaks or control characters).")
  .refine((name) => name.trim() !== "", "Enter a name.");

/**
 * The job's part of engine names (containers, services, networks): a slug of its name that the
 * engine accepts and a short hash of the name itself, so names that slug alike stay apart
 * (`my_chall` -> `my-chall-3f9c0a1b`). FNV-1a: spreading names, not secrecy.
 */
export function jobEngineKey(name: string): string {
  const slug =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+/, "")
      .slice(0, 12)
      .replace(/-+$/, "") || "job";
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${slug}-${hash.toString(16).padStart(8, "0")}`;
}

/** An image reference as Docker takes it: [registry[:port]/]path[:tag][@digest]. */
export const ZImageRef = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/, "Enter an image reference such as registry.example.com/team/challenge:1.0.");

const ZEnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "Variable names are letters, digits and underscores.");
const ZEnv = z
  .record(ZEnvName, z.string().max(4096))
  .refine((env) => Object.keys(env).length <= JOB_LIMITS.envEntries, { message: `At most ${JOB_LIMITS.envEntries} variables.` });

export const ZJobSpec = z.object({
  name: ZJobName,
  port: numeric(z.number().int().min(1).max(65535)),
  replicas: numeric(z.number().int().min(JOB_LIMITS.replicas.min).max(JOB_LIMITS.replicas.max)).default(JOB_DEFAULTS.replicas),
  resources: z
    .object({
      memory: numeric(z.number().int().min(JOB_LIMITS.memory.min).max(JOB_LIMITS.memory.max)).default(JOB_DEFAULTS.memory),
      cpus: numeric(z.number().min(JOB_LIMITS.cpus.min).max(JOB_LIMITS.cpus.max)).default(JOB_DEFAULTS.cpus),
    })
    .default({ memory: JOB_DEFAULTS.memory, cpus: JOB_DEFAULTS.cpus }),
  image: ZImageRef,
  registryAuth: z
    .object({ username: z.string().max(256), password: z.string().max(4096) })
    .nullish()
    .transform((auth) => (auth && (auth.username !== "" || auth.password !== "") ? auth : null)),
  env: ZEnv.default({}),
  dedicated: boolish.default(false),
  lifetime: numeric(z.number().int().min(JOB_LIMITS.lifetime.min).max(JOB_LIMITS.lifetime.max)).default(JOB_DEFAULTS.lifetime),
  writable: boolish.default(false),
  /**
   * Dedicated instances started and health-checked ahead of requests (a warm pool): a team asking
   * claims one at once instead of waiting for a container. Its lifetime starts at the claim.
   */
  warm: numeric(z.number().int().min(JOB_LIMITS.warm.min).max(JOB_LIMITS.warm.max)).default(JOB_DEFAULTS.warm),
  /**
   * The variable that carries the team's own flag (a `dynamic` challenge's per-team flag) into each
   * dedicated instance; empty or absent for none.
   */
  flag_env: z
    .union([ZEnvName, z.literal("")])
    .nullish()
    .transform((name) => name || null),
}).superRefine((spec, issue) => {
  if (spec.flag_env && !spec.dedicated) {
    issue.addIssue({ code: "custom", path: ["flag_env"], message: "A team's flag goes only into dedicated instances: make the job dedicated." });
  }
  if (spec.warm > 0 && !spec.dedicated) {
    issue.addIssue({ code: "custom", path: ["warm"], message: "Only dedicated instances are kept warm: make the job dedicated, or set 0." });
  }
  if (spec.warm > 0 && spec.flag_env) {
    issue.addIssue({ code: "custom", path: ["warm"], message: "Instances carrying a team's own flag differ per team and cannot be started ahead: set 0, or drop the flag variable." });
  }
  if (spec.flag_env && spec.flag_env in spec.env) {
    issue.addIssue({ code: "custom", path: ["flag_env"], message: "The environment already sets this variable." });
  }
});
export type JobSpec = z.infer<typeof ZJobSpec>;

export const ZSubmitJobInput = z.object({
  challenge_id: numeric(z.number().int().positive()),
  job_spec: ZJobSpec,
});
export type SubmitJobInput = z.infer<typeof ZSubmitJobInput>;

export const ZCservName = z.string().min(1).max(200);

/** A worker of the challenge-server tier, by its id (WORKER_ID). */
export const ZWorkerIdInput = z.object({ id: z.string().min(1).max(64) });
export type WorkerIdInput = z.infer<typeof ZWorkerIdInput>;

/** An instance as players get it. */
export interface ChallengeServerInstanceView {
  ip: string;
  port: number;
  extra: string[];
}

/** A job's replica health in a few words: what the staff jobs page shows. */
export type JobState = "deploying" | "running" | "degraded" | "failed";

export function jobState(job: { dedicated: boolean; replicas: number; error: string }, healthy: number, failed: number): JobState {
  if (job.error !== "" && healthy === 0 && (failed > 0 || !job.dedicated)) return "failed";
  if (job.dedicated) return failed > 0 ? "degraded" : "running";
  if (healthy >= job.replicas) return "running";
  return healthy === 0 ? "deploying" : "degraded";
}

/** Seconds without a heartbeat after which a worker counts as gone. */
export const WORKER_STALE_SECONDS = 15;

export interface PlacementCandidate {
  id: string;
  capacity: number;
  load: number;
}

/**
 * Picks the worker for a new instance: the lowest load relative to capacity, then the fewest
 * instances, then the id, so placement is deterministic for a given state. Null when none is live.
 */
export function pickWorker(candidates: readonly PlacementCandidate[]): string | null {
  let best: PlacementCandidate | null = null;
  for (const candidate of candidates) {
    if (best === null || compareLoad(candidate, best) < 0) best = candidate;
  }
  return best?.id ?? null;
}

function compareLoad(a: PlacementCandidate, b: PlacementCandidate): number {
  const ratio = a.load / Math.max(a.capacity, 1) - b.load / Math.max(b.capacity, 1);
  if (ratio !== 0) return ratio;
  if (a.load !== b.load) return a.load - b.load;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The lines under an instance's address in the challenge view. */
export function instanceExtra(input: { ip: string; port: number; expiresAt: Date | null }): string[] {
  const lines = [`nc ${input.ip} ${input.port}`];
  if (input.expiresAt) lines.push(`Your team's own instance, removed at ${input.expiresAt.toISOString()}.`);
  return lines;
}

/** The units the job form takes memory in; the server stores bytes. */
export const MEMORY_UNITS = { MiB: 1024 ** 2, GiB: 1024 ** 3 } as const;
export type MemoryUnit = keyof typeof MEMORY_UNITS;

/** Bytes as the job form shows them: whole GiB when they are, else MiB (up to two decimals). */
export function memoryInUnits(bytes: number): { amount: string; unit: MemoryUnit } {
  if (bytes >= MEMORY_UNITS.GiB && bytes % MEMORY_UNITS.GiB === 0) return { amount: String(bytes / MEMORY_UNITS.GiB), unit: "GiB" };
  return { amount: String(Math.round((bytes / MEMORY_UNITS.MiB) * 100) / 100), unit: "MiB" };
}

/** An amount typed in the job form (digits, or a decimal such as 1.5) in bytes, whole; null when it is not a number. */
export function memoryBytes(amount: string, unit: MemoryUnit): number | null {
  const text = amount.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  return Math.round(Number(text) * MEMORY_UNITS[unit]);
}
