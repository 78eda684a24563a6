import { AppError, type ChallengeServerInstanceView, eventGates, instanceExtra, isUnlocked, parseInput, pickWorker, ZCservName } from "@flagship/shared";
import { findChallenge } from "../challenges/catalog.ts";
import { getPlayerState } from "../challenges/team-state.ts";
import type { Prisma } from "@flagship/db";
import type { Context } from "../context.ts";
import { hasStaffPowers, requireAuth } from "../guards.ts";
import { LOCKING_TX, lockTeams } from "../teams/lock.ts";
import { anyWorkerAlive, liveWorkers, placeable } from "./tier.ts";

/** How long a request waits for a container to become healthy before it answers an error. */
const SHARED_WAIT_MS = 10_000;
const DEDICATED_WAIT_MS = 30_000;
const POLL_MS = 100;

interface JobRef {
  id: number;
  challengeId: number;
  dedicated: boolean;
  generation: number;
  lifetime: number;
  error: string;
}

interface InstanceRow {
  id: number;
  job_id: number;
  host: string;
  port: number | null;
  status: string;
  error: string;
  expires_at: Date | null;
}

/**
 * The checks every instance call makes, in the contract's order: signed in; the tier on (config
 * switch, Redis, a live worker); a team; then a job the caller may see. A job of a hidden,
 * unreleased or locked challenge is 404, exactly like an unknown name, so nothing leaks.
 */
async function resolve(ctx: Context, cservName: unknown): Promise<{ job: JobRef; teamId: number }> {
  const authed = requireAuth(ctx);
  const name = parseInput(ZCservName, cservName);
  if (!ctx.challengeServers || !(await ctx.config.get("enable_challenge_server")) || !(await anyWorkerAlive(ctx.db))) {
    throw new AppError("challenge_server_disabled");
  }
  const teamId = authed.actor.teamId;
  if (teamId === null) throw new AppError("challenge_server_team_required");
  const job = await ctx.db.challengeServerJob.findUnique({
    where: { name },
    select: { id: true, challengeId: true, dedicated: true, generation: true, lifetime: true, error: true },
  });
  if (!job) throw new AppError("not_found");
  if (!(await hasStaffPowers(authed))) {
    const config = await ctx.config.all();
    const gates = eventGates(config, ctx.now());
    if (!gates.started || (gates.ended && !config.enable_view_challenges_after_competion)) throw new AppError("not_found");
    const { challenge } = await findChallenge(ctx, job.challengeId);
    if (!challenge || challenge.withheld) throw new AppError("not_found");
    const state = await getPlayerState(ctx, authed.actor.id, teamId);
    if (!state.solved.has(challenge.id) && !isUnlocked(challenge.unlockRequirements, state.solved)) throw new AppError("not_found");
  }
  return { job, teamId };
}

function toView(row: InstanceRow & { port: number }): ChallengeServerInstanceView {
  return { ip: row.host, port: row.port, extra: instanceExtra({ ip: row.host, port: row.port, expiresAt: row.expires_at }) };
}

/** Instance errors carry their reason in words, as the message (tRPC) and as `d` (REST). */
function instanceError(code: "challenge_server_error" | "challenge_server_limit", message: string): AppError {
  return new AppError(code, { message, details: message });
}

/**
 * An instance that failed to start. The engine's words (paths, registry addresses, the host's
 * resources) are for staff, who see them on the jobs page and here in the log; players get a
 * plain sentence.
 */
function deployError(ctx: Context, jobId: number, reason: string): AppError {
  ctx.log.warn({ job: jobId, reason }, "a challenge server failed to start");
  return instanceError("challenge_server_error", "The challenge server could not be started. The organisers can see why; try again later.");
}

/** A request needing an engine that does not answer waits this long for it, then says so. */
const ENGINE_WAIT_MS = 3000;

function engineAwayError(): AppError {
  return instanceError("challenge_server_error", "The challenge servers cannot be reached right now. Try again in a moment.");
}

/** GET /challengeserver/instance/{cserv_name}/: the caller's team's instance, created or pinned on first use. */
export async function getInstance(ctx: Context, cservName: unknown): Promise<ChallengeServerInstanceView> {
  const { job, teamId } = await resolve(ctx, cservName);
  return job.dedicated ? dedicatedInstance(ctx, job, teamId, false) : sharedInstance(ctx, job, teamId, false);
}

/** GET /challengeserver/reset/{cserv_name}/: another healthy replica, or a fresh dedicated container. */
export async function resetInstance(ctx: Context, cservName: unknown): Promise<ChallengeServerInstanceView> {
  const { job, teamId } = await resolve(ctx, cservName);
  return job.dedicated ? dedicatedInstance(ctx, job, teamId, true) : sharedInstance(ctx, job, teamId, true);
}

async function pinned(ctx: Context, jobId: number, teamId: number): Promise<InstanceRow | undefined> {
  const rows = await ctx.db.$queryRaw<InstanceRow[]>`
    SELECT i.id, i.job_id, i.host, i.port, i.status, i.error, i.expires_at
    FROM team_instances ti JOIN challenge_server_instances i ON i.id = ti.instance_id
    WHERE ti.team_id = ${teamId} AND ti.job_id = ${jobId}`;
  return rows[0];
}

const isReady = (row: InstanceRow | undefined): row is InstanceRow & { port: number } => row?.status === "healthy" && row.port !== null;

/**
 * Shared replicas: a team keeps its replica while it is healthy; otherwise (or on reset) it is
 * pinned to the healthy replica serving the fewest teams. Pins are written with conditional SQL, so
 * parallel requests of one team end on one replica.
 */
async function sharedInstance(ctx: Context, job: JobRef, teamId: number, reset: boolean): Promise<ChallengeServerInstanceView> {
  const deadline = Date.now() + SHARED_WAIT_MS;
  for (;;) {
    const current = await pinned(ctx, job.id, teamId);
    if (!reset && isReady(current)) return toView(current);
    const candidates = await ctx.db.$queryRaw<{ id: number }[]>`
      SELECT i.id FROM challenge_server_instances i
      LEFT JOIN team_instances ti ON ti.instance_id = i.id
      WHERE i.job_id = ${job.id} AND i.team_id IS NULL AND i.status = 'healthy' AND i.port IS NOT NULL
      GROUP BY i.id, i.generation
      ORDER BY (i.generation = ${job.generation}) DESC, (i.id = ${current?.id ?? 0}) ASC, COUNT(ti.team_id) ASC, random()
      LIMIT 1`;
    const choice = candidates[0];
    if (choice) {
      if (current) {
        await ctx.db.$executeRaw`
          UPDATE team_instances SET instance_id = ${choice.id}, assigned_at = now()
          WHERE team_id = ${teamId} AND job_id = ${job.id} AND instance_id = ${current.id}`;
      } else {
        await ctx.db.$executeRaw`
          INSERT INTO team_instances (team_id, job_id, instance_id) VALUES (${teamId}, ${job.id}, ${choice.id})
          ON CONFLICT (team_id, job_id) DO NOTHING`;
      }
      const now = await pinned(ctx, job.id, teamId);
      if (isReady(now)) return toView(now);
      reset = false;
      continue;
    }
    if (job.error !== "") throw deployError(ctx, job.id, job.error);
    const failed = await ctx.db.challengeServerInstance.findFirst({ where: { jobId: job.id, status: "failed" }, select: { error: true } });
    if (failed) throw deployError(ctx, job.id, failed.error);
    if (Date.now() > deadline) throw instanceError("challenge_server_error", "No instance of this challenge is ready yet. Try again in a moment.");
    await sleep(POLL_MS * 2);
  }
}

/**
 * Dedicated jobs: one container per team, created on first use and living `lifetime` seconds.
 * Creation locks the team row, so the per-team cap holds under parallel requests, and the
 * (job, team) unique index gives parallel requests one instance.
 */
async function dedicatedInstance(ctx: Context, job: JobRef, teamId: number, reset: boolean): Promise<ChallengeServerInstanceView> {
  let row = await ctx.db.challengeServerInstance.findUnique({
    where: { jobId_teamId: { jobId: job.id, teamId } },
    select: { id: true, workerId: true },
  });
  if (row && reset) {
    await ctx.db.$executeRaw`
      UPDATE challenge_server_instances
      SET revision = revision + 1, status = 'pending', port = NULL, error = '', updated_at = now(),
          expires_at = now() + make_interval(secs => ${job.lifetime})
      WHERE id = ${row.id}`;
    ctx.challengeServers?.wake([row.workerId]);
  }
  if (!row) {
    const limit = await ctx.config.get("challenge_server_instance_limit");
    const outcome = await ctx.db.$transaction(async (tx) => {
      await lockTeams(tx, [teamId]);
      // The team's instances, in one read: this job's (a parallel request made it) and the count for the cap.
      const held = await tx.$queryRaw<{ id: number; job_id: number; worker_id: string }[]>`
        SELECT id, job_id, worker_id FROM challenge_server_instances WHERE team_id = ${teamId}`;
      const existing = held.find((i) => i.job_id === job.id);
      if (existing) return { id: existing.id, workerId: existing.worker_id, warm: null };
      if (held.length >= limit) {
        throw instanceError("challenge_server_limit", `Your team already runs ${held.length} dedicated instance${held.length === 1 ? "" : "s"}, the most allowed. Let one expire before starting another.`);
      }
      const warm = await claimWarm(tx, job, teamId);
      if (warm) return { id: warm.id, workerId: warm.worker_id, warm };
      // The pool is empty (or the job keeps none): the instance is made for the team now.
      const workerId = pickWorker((await liveWorkers(tx)).filter(placeable));
      if (workerId === null) throw new AppError("challenge_server_disabled");
      const created = await tx.challengeServerInstance.create({
        data: { jobId: job.id, generation: job.generation, teamId, workerId, expiresAt: new Date(Date.now() + job.lifetime * 1000) },
        select: { id: true, workerId: true },
      });
      await tx.teamInstance.upsert({
        where: { teamId_jobId: { teamId, jobId: job.id } },
        create: { teamId, jobId: job.id, instanceId: created.id },
        update: { instanceId: created.id },
        select: { teamId: true },
      });
      return { ...created, warm: null };
    }, LOCKING_TX);
    // A warm instance is started and healthy already: the team has it at once. The pool is
    // topped up by the worker tier's periodic pass, so a rush of claims does not have Docker
    // creating replacements while it lasts.
    if (outcome.warm) return toView(outcome.warm);
    row = outcome;
    ctx.challengeServers?.wake([row.workerId]);
  }
  return waitUntilHealthy(ctx, row.id, DEDICATED_WAIT_MS);
}

/**
 * Claims one healthy warm instance of the job's current spec for the team, if the pool has one,
 * and pins the team to it, in one statement: the row lock (SKIP LOCKED) makes every claim take a
 * different instance, across server copies. The instance's lifetime starts now.
 */
async function claimWarm(tx: Prisma.TransactionClient, job: JobRef, teamId: number): Promise<(InstanceRow & { port: number; worker_id: string }) | null> {
  const rows = await tx.$queryRaw<(InstanceRow & { port: number; worker_id: string })[]>`
    WITH claimed AS (
      UPDATE challenge_server_instances
      SET team_id = ${teamId}, pooled = false, updated_at = now(), expires_at = now() + make_interval(secs => ${job.lifetime})
      WHERE id = (
        SELECT id FROM challenge_server_instances
        WHERE job_id = ${job.id} AND pooled AND team_id IS NULL AND generation = ${job.generation} AND status = 'healthy' AND port IS NOT NULL
        ORDER BY id
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ) AND pooled AND team_id IS NULL
      RETURNING id, job_id, worker_id, host, port, status, error, expires_at
    ), pinned AS (
      INSERT INTO team_instances (team_id, job_id, instance_id)
      SELECT ${teamId}, ${job.id}, id FROM claimed
      ON CONFLICT (team_id, job_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, assigned_at = now()
    )
    SELECT * FROM claimed`;
  return rows[0] ?? null;
}

async function waitUntilHealthy(ctx: Context, instanceId: number, waitMs: number): Promise<ChallengeServerInstanceView> {
  const started = Date.now();
  const deadline = started + waitMs;
  for (;;) {
    const row = await watcherOf(ctx.db).next(instanceId);
    if (!row) throw instanceError("challenge_server_error", "The instance was removed while it started. Request it again.");
    if (isReady(row)) return toView(row);
    if (row.status === "failed") throw deployError(ctx, row.job_id, row.error);
    // Its worker's engine does not answer: a short wait (a blip), then a plain answer. Past the
    // worker's grace the instance is re-created on another worker, and a later request gets it.
    if (row.engine_lost && Date.now() - started > ENGINE_WAIT_MS) throw engineAwayError();
    if (Date.now() > deadline) throw instanceError("challenge_server_error", "Your instance is still starting. Try again in a moment.");
  }
}

/**
 * Requests waiting for their instances share one query per poll: when fifty teams ask at once,
 * the database answers one `id = ANY(...)` every POLL_MS instead of fifty queries.
 */
class InstanceWatcher {
  private readonly waiting = new Map<number, Waiter[]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Context["db"]) {}

  /** The instance's row at the next poll (undefined when it is gone), and whether its worker's engine answers. */
  next(id: number): Promise<(InstanceRow & { engine_lost: boolean }) | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(id) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(id, list);
      this.timer ??= setTimeout(() => void this.poll(), POLL_MS);
    });
  }

  /** Answers every waiter of this round; a failed query fails them all. Never rejects. */
  private async poll(): Promise<void> {
    const batch = new Map(this.waiting);
    this.waiting.clear();
    try {
      const rows = await this.db.$queryRaw<(InstanceRow & { engine_lost: boolean })[]>`
        SELECT i.id, i.job_id, i.host, i.port, i.status, i.error, i.expires_at, (w.engine_lost_at IS NOT NULL) AS engine_lost
        FROM challenge_server_instances i LEFT JOIN challenge_server_workers w ON w.id = i.worker_id
        WHERE i.id = ANY(${[...batch.keys()]})`;
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const [id, waiters] of batch) for (const w of waiters) w.resolve(byId.get(id));
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    } finally {
      this.timer = this.waiting.size > 0 ? setTimeout(() => void this.poll(), POLL_MS) : null;
    }
  }
}

interface Waiter {
  resolve: (row: (InstanceRow & { engine_lost: boolean }) | undefined) => void;
  reject: (error: unknown) => void;
}

const watchers = new WeakMap<Context["db"], InstanceWatcher>();

function watcherOf(db: Context["db"]): InstanceWatcher {
  let watcher = watchers.get(db);
  if (!watcher) {
    watcher = new InstanceWatcher(db);
    watchers.set(db, watcher);
  }
  return watcher;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
