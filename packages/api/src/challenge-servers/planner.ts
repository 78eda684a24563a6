import type { Db, Prisma } from "@flagship/db";
import { pickWorker, WORKER_STALE_SECONDS } from "@flagship/shared";
import { liveWorkers, type LiveWorker } from "./tier.ts";

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
}

/** A worker announces itself (and keeps itself alive). */
export async function heartbeat(db: Db, worker: HeartbeatInput): Promise<void> {
  await db.$executeRaw`
    INSERT INTO challenge_server_workers (id, backend, address, capacity, started_at, last_seen)
    VALUES (${worker.id}, ${worker.backend}, ${worker.address}, ${worker.capacity}, now(), now())
    ON CONFLICT (id) DO UPDATE SET backend = EXCLUDED.backend, address = EXCLUDED.address, capacity = EXCLUDED.capacity, last_seen = now()`;
}

/** A worker that stops cleanly leaves at once, so its instances move without waiting for staleness. */
export async function leave(db: Db, workerId: string): Promise<void> {
  await db.$executeRaw`UPDATE challenge_server_workers SET last_seen = to_timestamp(0) WHERE id = ${workerId}`;
}

/** Places one new instance: the least loaded live worker, counting what this plan already placed. */
function placer(workers: LiveWorker[]): () => string | null {
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
    const orphans = await db.$queryRaw<{ id: number }[]>`
      SELECT i.id FROM challenge_server_instances i
      WHERE NOT EXISTS (
        SELECT 1 FROM challenge_server_workers w
        WHERE w.id = i.worker_id AND w.last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS})
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
      WHERE w.last_seen <= now() - make_interval(secs => ${WORKER_STALE_SECONDS})
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
