import { isUniqueViolation, Prisma } from "@flagship/db";
import { AppError, jobEngineKey, jobState, type JobState, parseInput, ZIdInput, ZSubmitJobInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import { announceChallengeChanges } from "../challenges/changes.ts";
import type { StaffContext } from "../guards.ts";
import { checkImageRegistry } from "./registry.ts";
import { liveWorkers } from "./tier.ts";

export interface JobView {
  id: number;
  name: string;
  challenge_id: number;
  challenge_name: string;
  port: number;
  replicas: number;
  resources: { memory: number; cpus: number };
  image: string;
  /** Whether registry credentials are stored; they are never sent back. */
  has_registry_auth: boolean;
  env: Record<string, string>;
  dedicated: boolean;
  lifetime: number;
  writable: boolean;
  /** The variable carrying each team's own flag into its dedicated instance, or null. */
  flag_env: string | null;
  /** Dedicated instances kept started ahead of requests (the warm pool's size). */
  warm: number;
  generation: number;
}

export interface JobInstanceView {
  id: number;
  slot: number | null;
  team_id: number | null;
  /** The team's name, for staff reading the list (null for shared and warm instances). */
  team_name: string | null;
  worker: string;
  host: string;
  port: number | null;
  status: string;
  error: string;
  teams: number;
  expires_at: string | null;
  current: boolean;
  /** A warm instance waiting in the pool for a team. */
  pooled: boolean;
}

export interface JobStatusView extends JobView {
  state: JobState;
  healthy: number;
  total: number;
  teams_pinned: number;
  /** Warm instances healthy and waiting for a team (of `warm`). */
  warm_ready: number;
  last_error: string;
  instances: JobInstanceView[];
}

const jobSelect = {
  id: true,
  name: true,
  challengeId: true,
  port: true,
  replicas: true,
  memory: true,
  cpus: true,
  image: true,
  registryAuth: true,
  env: true,
  dedicated: true,
  lifetime: true,
  writable: true,
  flagEnv: true,
  warm: true,
  generation: true,
  error: true,
  challenge: { select: { name: true } },
} as const;

type JobRow = Prisma.ChallengeServerJobGetPayload<{ select: typeof jobSelect }>;

function toJobView(job: JobRow): JobView {
  return {
    id: job.id,
    name: job.name,
    challenge_id: job.challengeId,
    challenge_name: job.challenge.name,
    port: job.port,
    replicas: job.replicas,
    resources: { memory: Number(job.memory), cpus: job.cpus },
    image: job.image,
    has_registry_auth: job.registryAuth !== null,
    env: (job.env ?? {}) as Record<string, string>,
    dedicated: job.dedicated,
    lifetime: job.lifetime,
    writable: job.writable,
    flag_env: job.flagEnv,
    warm: job.warm,
    generation: job.generation,
  };
}

/**
 * POST /challengeserver/submit_job/: creates the challenge's job, or replaces it (a rolling swap:
 * the new generation's replicas come up healthy before teams move and the old ones go). The job's
 * name becomes the challenge's challenge_metadata.cserv_name. Invalid input stores nothing.
 */
export async function submitJob(ctx: StaffContext, input: unknown): Promise<JobView> {
  const { challenge_id: challengeId, job_spec: spec } = parseInput(ZSubmitJobInput, input);
  await checkImageRegistry(spec.image, ctx.challengeRegistries);
  const data = {
    name: spec.name,
    port: spec.port,
    replicas: spec.replicas,
    memory: BigInt(spec.resources.memory),
    cpus: spec.resources.cpus,
    image: spec.image,
    registryAuth: spec.registryAuth ?? Prisma.DbNull,
    env: spec.env,
    dedicated: spec.dedicated,
    lifetime: spec.lifetime,
    writable: spec.writable,
    flagEnv: spec.flag_env,
    warm: spec.warm,
  };
  let job: JobRow;
  try {
    job = await ctx.db.$transaction(async (tx) => {
      const challenge = await tx.$queryRaw<{ id: number; challenge_metadata: Prisma.JsonObject; flag_type: string }[]>`
        SELECT id, challenge_metadata, flag_type FROM challenges WHERE id = ${challengeId} FOR UPDATE`;
      const found = challenge[0];
      if (!found) throw AppError.field("invalid", "challenge_id", `Invalid pk "${challengeId}" - object does not exist.`);
      if (spec.flag_env && found.flag_type !== "dynamic") {
        throw AppError.field("invalid", "job_spec.flag_env", "Only a challenge with per-team (dynamic) flags can hand each team its flag.");
      }
      const named = await tx.challengeServerJob.findUnique({ where: { name: spec.name }, select: { challengeId: true } });
      if (named && named.challengeId !== challengeId) throw AppError.field("unique", "job_spec.name", "Another challenge's job already has this name.");
      const existing = await tx.challengeServerJob.findUnique({ where: { challengeId }, select: { id: true } });
      const saved = existing
        ? await tx.challengeServerJob.update({
            where: { id: existing.id },
            data: { ...data, generation: { increment: 1 }, error: "" },
            select: jobSelect,
          })
        : await tx.challengeServerJob.create({ data: { ...data, challengeId, engineKey: jobEngineKey(spec.name) }, select: jobSelect });
      const metadata = { ...(found.challenge_metadata ?? {}), cserv_name: spec.name };
      await tx.challenge.update({ where: { id: challengeId }, data: { challengeMetadata: metadata }, select: { id: true } });
      await writeAudit(tx, ctx.actor, existing ? "update_challenge_server_job" : "create_challenge_server_job", {
        id: saved.id,
        challenge: challengeId,
        name: spec.name,
        image: spec.image,
        replicas: spec.replicas,
        dedicated: spec.dedicated,
        flag_env: spec.flag_env,
        warm: spec.warm,
      });
      return saved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.field("unique", "job_spec.name", "Another challenge's job already has this name.");
    throw error;
  }
  ctx.challengeServers?.plan(job.id);
  await announceChallengeChanges(ctx, [challengeId]);
  return toJobView(job);
}

/** Every job with its replicas' health, where they run and how many teams each serves. */
export async function listJobs(ctx: StaffContext): Promise<JobStatusView[]> {
  const [jobs, instances, pins] = await Promise.all([
    ctx.db.challengeServerJob.findMany({ select: jobSelect, orderBy: { id: "asc" } }),
    ctx.db.challengeServerInstance.findMany({
      select: { id: true, jobId: true, generation: true, slot: true, teamId: true, pooled: true, workerId: true, host: true, port: true, status: true, error: true, expiresAt: true },
      orderBy: [{ jobId: "asc" }, { slot: "asc" }, { teamId: "asc" }],
    }),
    ctx.db.teamInstance.groupBy({ by: ["instanceId"], _count: { _all: true } }),
  ]);
  const teamsByInstance = new Map(pins.map((p) => [p.instanceId, p._count._all]));
  const teamIds = [...new Set(instances.flatMap((i) => (i.teamId === null ? [] : [i.teamId])))];
  const teamNames = new Map(teamIds.length === 0 ? [] : (await ctx.db.team.findMany({ where: { id: { in: teamIds } }, select: { id: true, name: true } })).map((team) => [team.id, team.name]));
  const byJob = new Map<number, JobInstanceView[]>();
  const generationOf = new Map(jobs.map((j) => [j.id, j.generation]));
  for (const i of instances) {
    const list = byJob.get(i.jobId) ?? [];
    list.push({
      id: i.id,
      slot: i.slot,
      team_id: i.teamId,
      team_name: i.teamId === null ? null : (teamNames.get(i.teamId) ?? null),
      worker: i.workerId,
      host: i.host,
      port: i.port,
      status: i.status,
      error: i.error,
      teams: teamsByInstance.get(i.id) ?? 0,
      expires_at: i.expiresAt?.toISOString() ?? null,
      current: i.generation === generationOf.get(i.jobId),
      pooled: i.pooled,
    });
    byJob.set(i.jobId, list);
  }
  return jobs.map((job) => {
    const list = byJob.get(job.id) ?? [];
    // Warm instances waiting in the pool are counted apart: the job's state is about teams' instances.
    const current = list.filter((i) => i.current && !i.pooled);
    const healthy = current.filter((i) => i.status === "healthy").length;
    // A warm instance that cannot start (a failed pull, say) fails the job like a team's would.
    const failed = list.filter((i) => i.current && i.status === "failed").length;
    const warmReady = list.filter((i) => i.current && i.pooled && i.status === "healthy").length;
    const lastError = job.error || (list.find((i) => i.error !== "")?.error ?? "");
    return {
      ...toJobView(job),
      state: jobState({ dedicated: job.dedicated, replicas: job.replicas, error: lastError }, healthy, failed),
      healthy,
      total: job.dedicated ? current.length : job.replicas,
      teams_pinned: list.reduce((sum, i) => sum + i.teams, 0),
      warm_ready: warmReady,
      last_error: lastError,
      instances: list,
    };
  });
}

/** Redeploys a job as it stands: a rolling swap to fresh replicas (dedicated instances recreated). */
export async function redeployJob(ctx: StaffContext, id: number): Promise<JobView> {
  parseInput(ZIdInput, { id });
  const job = await ctx.db.$transaction(async (tx) => {
    const found = await tx.challengeServerJob.findUnique({ where: { id }, select: { id: true } });
    if (!found) throw new AppError("not_found");
    const updated = await tx.challengeServerJob.update({ where: { id }, data: { generation: { increment: 1 }, error: "" }, select: jobSelect });
    await writeAudit(tx, ctx.actor, "redeploy_challenge_server_job", { id, name: updated.name });
    return updated;
  });
  ctx.challengeServers?.plan(job.id);
  return toJobView(job);
}

/** Removes a job: its containers are torn down and the challenge no longer names it. */
export async function removeJob(ctx: StaffContext, id: number): Promise<void> {
  parseInput(ZIdInput, { id });
  const workers = await liveWorkers(ctx.db);
  const challengeId = await ctx.db.$transaction(async (tx) => {
    const found = await tx.challengeServerJob.findUnique({ where: { id }, select: { id: true, name: true, challengeId: true } });
    if (!found) throw new AppError("not_found");
    const rows = await tx.$queryRaw<{ challenge_metadata: Prisma.JsonObject }[]>`
      SELECT challenge_metadata FROM challenges WHERE id = ${found.challengeId} FOR UPDATE`;
    const metadata = { ...(rows[0]?.challenge_metadata ?? {}) };
    if (metadata.cserv_name === found.name) delete metadata.cserv_name;
    await tx.challenge.update({ where: { id: found.challengeId }, data: { challengeMetadata: metadata }, select: { id: true } });
    await tx.challengeServerJob.delete({ where: { id }, select: { id: true } });
    await writeAudit(tx, ctx.actor, "delete_challenge_server_job", { id, name: found.name, challenge: found.challengeId });
    return found.challengeId;
  });
  ctx.challengeServers?.wake(workers.map((w) => w.id));
  await announceChallengeChanges(ctx, [challengeId]);
}
