import type { Db, Prisma } from "@flagship/db";
import { pickWorker, WORKER_STALE_SECONDS } from "@flagship/shared";
import { liveWorkers, type LiveWorker, placeable } from "./tier.ts";

/**
 * The desired state of the worker tier lives in challenge_server_instances; these functions
 * change it and report which workers must converge their engines on it. They run in the worker
 * tier (any worker), never on the request path of players.
 */

export interface HeartbeatInput {
  id: string;
  backend: string;
  address: string;
  capacity: number;
  /** The Docker engine's own id (a worker starting on the same engine adopts a parked worker). */
  engine?: string;
  /** Whether the worker's engine answered its last ping (default: it did). */
  engineUp?: boolean;
  /** Seconds the engine may stay unreachable before this worker's instances move elsewhere. */
  engineGrace?: number;
}

/**
 * A worker announces itself (and keeps itself alive). A worker whose engine does not answer
 * still heartbeats, with the time it lost the engine: it takes no placements meanwhile, and past
 * its grace the periodic pass moves its instances (see `reconcile`).
 */
export async function heartbeat(db: Db, worker: HeartbeatInput): Promise<void> {
  const up = worker.engineUp ?? true;
  const grace = worker.engineGrace ?? DEFAULT_ENGINE_GRACE_SECONDS;
  await db.$executeRaw`
    INSERT INTO challenge_server_workers (id, backend, address, capacity, engine, engine_grace, engine_lost_at, started_at, last_seen)
    VALUES (${worker.id}, ${worker.backend}, ${worker.address}, ${worker.capacity}, ${worker.engine ?? ""}, ${grace}, CASE WHEN ${up} THEN NULL ELSE now() END, now(), now())
    ON CONFLICT (id) DO UPDATE SET backend = EXCLUDED.backend, address = EXCLUDED.address, capacity = EXCLUDED.capacity,
      engine = CASE WHEN EXCLUDED.engine = '' THEN challenge_server_workers.engine ELSE EXCLUDED.engine END, engine_grace = EXCLUDED.engine_grace,
      engine_lost_at = CASE WHEN ${up} THEN NULL ELSE COALESCE(challenge_server_workers.engine_lost_at, now()) END,
      parked_until = NULL, last_seen = now()`;
}

/** How long a worker's engine may stay unreachable before its instances move (ENGINE_LOSS_GRACE). */
export const DEFAULT_ENGINE_GRACE_SECONDS = 10;

/**
 * A worker that stops cleanly leaves at once (no new placements), but its containers keep running
 * and its instances stay for `parkSeconds`: a worker starting on the same engine in that time
 * adopts them as they are (`adoptParked`); otherwise the periodic pass moves them as for a dead
 * worker. 0 moves them at once.
 */
export async function leave(db: Db, workerId: string, parkSeconds = 0): Promise<void> {
  await db.$executeRaw`
    UPDATE challenge_server_workers
    SET last_seen = to_timestamp(0), parked_until = CASE WHEN ${parkSeconds} > 0 THEN now() + make_interval(secs => ${parkSeconds}) END
    WHERE id = ${workerId}`;
}

/**
 * A worker starting on an engine takes over the identity of a worker that stopped cleanly on the
 * same engine and is still within its grace: the same id, so the same rows, containers, ports
 * and state. One parked worker is adopted by one starting worker only (the row lock). Returns
 * the adopted id, or null when there is none.
 */
export async function adoptParked(db: Db, engine: string, preferred = ""): Promise<string | null> {
  if (engine === "") return null;
  // Its own former identity first (a container restarted keeps its host name, so its default id).
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE challenge_server_workers SET parked_until = NULL, last_seen = now(), started_at = now(), engine_lost_at = NULL
    WHERE id = (
      SELECT id FROM challenge_server_workers
      WHERE engine = ${engine} AND parked_until > now() AND NOT draining
      ORDER BY (id = ${preferred}) DESC, parked_until LIMIT 1
      FOR UPDATE SKIP LOCKED
    ) AND parked_until > now()
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/**
 * Staff take a worker (or every worker of one engine) out of service: no new placements, and the
 * periodic pass moves its instances to other workers. A worker that starts again afresh (not
 * adopting) is in service again. Returns the ids marked.
 */
export async function drainWorkers(db: Pick<Db, "$queryRaw">, target: { id: string } | { engine: string }): Promise<string[]> {
  const rows =
    "id" in target
      ? await db.$queryRaw<{ id: string }[]>`UPDATE challenge_server_workers SET draining = true WHERE id = ${target.id} RETURNING id`
      : await db.$queryRaw<{ id: string }[]>`UPDATE challenge_server_workers SET draining = true WHERE engine = ${target.engine} AND engine <> '' RETURNING id`;
  return rows.map((r) => r.id);
}

/** Instances still held by the given workers (a drain is done at 0). */
export async function instancesHeldBy(db: Db, workerIds: string[]): Promise<number> {
  const rows = await db.$queryRaw<{ n: bigint }[]>`SELECT COUNT(*)::bigint AS n FROM challenge_server_instances WHERE worker_id = ANY(${workerIds})`;
  return Number(rows[0]?.n ?? 0);
}

/** Places one new instance: the least loaded live worker, counting what this plan already placed. */
function placer(all: LiveWorker[]): () => string | null {
  const workers = all.filter(placeable);
  const loads = new Map(workers.map((w) => [w.id, w.load]));
  return () => {
    const id = pickWorker(workers.map((w) => ({ id: w.id, capacity: w.capacity, load: loads.get(w.id) ?? 0 })));
    if (id !== null) loads.set(id, (loads.get(id) ?? 0) + 1);
    return id;
  };
}

/**
 * Brings one job's instance rows in line with its spec: the current generation's replica slots
 * exist (shared jobs), an older generation is swapped out once the new one is healthy (teams
 * moved to the new replicas first), rows of the other mode are dropped, and dedicated instances of
 * an older spec are recreated. Returns the workers to wake.
 */
export async function planJob(db: Db, jobId: number, workers?: LiveWorker[]): Promise<Set<string>> {
  const wake = new Set<string>();
  const job = await db.challengeServerJob.findUnique({ where: { id: jobId }, select: { id: true, dedicated: true, replicas: true, generation: true, warm: true, flagEnv: true } });
  if (!job) return wake;
  const live = workers ?? (await liveWorkers(db));
  const place = placer(live);
  const rows = await db.challengeServerInstance.findMany({
    where: { jobId },
    select: { id: true, generation: true, slot: true, teamId: true, workerId: true, status: true },
  });
  for (const row of rows) wake.add(row.workerId);

  if (job.dedicated) {
    // Rows without a team are the warm pool's; any other (a shared replica of before) goes.
    await db.challengeServerInstance.deleteMany({ where: { jobId, teamId: null, pooled: false } });
    await planPool(db, job, place, wake);
    const stale = rows.filter((r) => r.teamId !== null && r.generation < job.generation).map((r) => r.id);
    if (stale.length > 0) {
      await db.$executeRaw`
        UPDATE challenge_server_instances SET generation = ${job.generation}, revision = revision + 1, status = 'pending', port = NULL, error = ''
        WHERE id = ANY(${stale})`;
    }
    return wake;
  }

  await db.challengeServerInstance.deleteMany({ where: { jobId, OR: [{ teamId: { not: null } }, { pooled: true }] } });
  const current = rows.filter((r) => r.teamId === null && r.generation === job.generation);
  const present = new Set(current.map((r) => r.slot));
  const missing: { jobId: number; generation: number; slot: number; workerId: string }[] = [];
  for (let slot = 0; slot < job.replicas; slot++) {
    if (present.has(slot)) continue;
    const workerId = place();
    if (workerId === null) break;
    missing.push({ jobId, generation: job.generation, slot, workerId });
    wake.add(workerId);
  }
  if (missing.length > 0) await db.challengeServerInstance.createMany({ data: missing, skipDuplicates: true });
  // Scaled down: the extra replicas go; their teams are pinned again on their next request.
  await db.challengeServerInstance.deleteMany({ where: { jobId, generation: job.generation, slot: { gte: job.replicas } } });

  const older = rows.filter((r) => r.teamId === null && r.generation !== job.generation);
  if (older.length > 0) {
    const healthy = await db.challengeServerInstance.count({ where: { jobId, generation: job.generation, status: "healthy" } });
    if (healthy >= job.replicas) await swapGeneration(db, jobId, job.generation);
  }
  return wake;
}

/**
 * Keeps a dedicated job's warm pool at its size: instances started ahead, each on a network of
 * its own, waiting for a team to claim one (see `claimWarm`). Warm instances of an older spec or
 * that stopped answering are dropped (their workers remove the containers) and new ones planned
 * in their place; a job whose containers differ per team (a per-team flag) keeps no pool. Every
 * delete is conditional on the row still being unclaimed, so a claim committed meanwhile wins.
 */
async function planPool(
  db: Db,
  job: { id: number; generation: number; warm: number; flagEnv: string | null },
  place: () => string | null,
  wake: Set<string>,
): Promise<void> {
  const size = job.flagEnv === null ? job.warm : 0;
  // One plan of a job's pool at a time across workers, so two never both top it up.
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${POOL_LOCK}, ${job.id})`;
    await topUpPool(tx, job, size, place, wake);
  });
}

/** Locks of the pools' plans live in their own advisory-lock space (the first key). */
const POOL_LOCK = 0x666c;

async function topUpPool(
  db: Prisma.TransactionClient,
  job: { id: number; generation: number },
  size: number,
  place: () => string | null,
  wake: Set<string>,
): Promise<void> {
  await db.$executeRaw`
    DELETE FROM challenge_server_instances
    WHERE job_id = ${job.id} AND pooled AND team_id IS NULL AND (generation <> ${job.generation} OR status = 'unhealthy')`;
  const waiting = await db.challengeServerInstance.findMany({
    where: { jobId: job.id, pooled: true, teamId: null },
    select: { id: true },
    // When the pool shrinks, the newest go first.
    orderBy: { id: "desc" },
  });
  if (waiting.length > size) {
    const extra = waiting.slice(0, waiting.length - size).map((r) => r.id);
    await db.$executeRaw`DELETE FROM challenge_server_instances WHERE id = ANY(${extra}) AND pooled AND team_id IS NULL`;
    return;
  }
  const missing: { jobId: number; generation: number; workerId: string; pooled: true }[] = [];
  for (let n = waiting.length; n < size; n++) {
    const workerId = place();
    if (workerId === null) break;
    missing.push({ jobId: job.id, generation: job.generation, workerId, pooled: true });
    wake.add(workerId);
  }
  if (missing.length > 0) await db.challengeServerInstance.createMany({ data: missing });
}

/**
 * The rolling swap's last step, in one transaction: every team on an old replica is moved to a
 * healthy new one (round robin), then the old replicas are dropped and their workers remove them.
 */
async function swapGeneration(db: Db, jobId: number, generation: number): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`
      WITH fresh AS (
        SELECT id, (row_number() OVER (ORDER BY slot) - 1) AS rn, COUNT(*) OVER () AS n
        FROM challenge_server_instances
        WHERE job_id = ${jobId} AND generation = ${generation} AND team_id IS NULL AND status = 'healthy'
      ), moving AS (
        SELECT ti.team_id, (row_number() OVER (ORDER BY ti.team_id) - 1) AS rn
        FROM team_instances ti JOIN challenge_server_instances i ON i.id = ti.instance_id
        WHERE ti.job_id = ${jobId} AND i.generation <> ${generation}
      )
      UPDATE team_instances t SET instance_id = fresh.id, assigned_at = now()
      FROM moving, fresh
      WHERE t.job_id = ${jobId} AND t.team_id = moving.team_id AND fresh.rn = moving.rn % fresh.n`;
    await tx.$executeRaw`DELETE FROM challenge_server_instances WHERE job_id = ${jobId} AND team_id IS NULL AND generation <> ${generation}`;
  });
}

/**
 * The periodic pass: instances of workers that stopped heartbeating move to live workers (same
 * rows, so pinned teams move with them), dead workers are forgotten, dedicated instances past
 * their lifetime go, and every job is planned again. Returns the workers to wake.
 */
export async function reconcile(db: Db): Promise<Set<string>> {
  const wake = new Set<string>();
  const live = await liveWorkers(db);
  if (live.length > 0) {
    // An instance stays where it is while its worker is live, serving, and not drained, or parked
    // by a clean stop within its grace (a worker restarting on that engine adopts it as it is).
    // One whose worker's engine has not answered for the worker's grace moves too.
    const orphans = await db.$queryRaw<{ id: number }[]>`
      SELECT i.id FROM challenge_server_instances i
      WHERE NOT EXISTS (
        SELECT 1 FROM challenge_server_workers w
        WHERE w.id = i.worker_id AND NOT w.draining AND (
          (w.last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS})
            AND (w.engine_lost_at IS NULL OR w.engine_lost_at > now() - make_interval(secs => w.engine_grace)))
          OR w.parked_until > now())
      )
      ORDER BY i.id`;
    const place = placer(live);
    for (const { id } of orphans) {
      const workerId = place();
      if (workerId === null) break;
      await db.$executeRaw`
        UPDATE challenge_server_instances
        SET worker_id = ${workerId}, container_id = NULL, port = NULL, host = '', status = 'pending', revision = revision + 1, updated_at = now()
        WHERE id = ${id}`;
      wake.add(workerId);
    }
    await db.$executeRaw`
      DELETE FROM challenge_server_workers w
      WHERE w.last_seen <= now() - make_interval(secs => ${WORKER_STALE_SECONDS}) AND (w.parked_until IS NULL OR w.parked_until <= now())
        AND NOT EXISTS (SELECT 1 FROM challenge_server_instances i WHERE i.worker_id = w.id)`;
  }
  const expired = await db.$queryRaw<{ worker_id: string }[]>`
    DELETE FROM challenge_server_instances WHERE expires_at IS NOT NULL AND expires_at <= now() RETURNING worker_id`;
  for (const row of expired) wake.add(row.worker_id);
  const jobs = await db.challengeServerJob.findMany({ select: { id: true } });
  const workers = await liveWorkers(db);
  for (const job of jobs) for (const id of await planJob(db, job.id, workers)) wake.add(id);
  return wake;
}
