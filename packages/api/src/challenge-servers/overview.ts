import { WORKER_STALE_SECONDS } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";

/** The challenge-server queue's jobs by state, and how long the oldest waiting one has waited. */
export interface TierQueueView {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Seconds; null when nothing waits. */
  oldest_waiting_seconds: number | null;
}

/** The tier at a glance for the staff console: what staff act on during an event. */
export interface TierOverview {
  workers: {
    /** With a recent heartbeat. */
    live: number;
    /** Live and taking new instances (not drained, engine answering). */
    placeable: number;
    draining: number;
    engine_lost: number;
    /** Stopped cleanly, their containers kept for a worker restarting on the same engine. */
    parked: number;
    /** Instances the live and parked workers hold, and how many the live ones take before others are preferred. */
    load: number;
    capacity: number;
    /** Seconds since the stalest live worker's last heartbeat (null: no live worker). */
    stalest_heartbeat_seconds: number | null;
  };
  /** Distinct Docker engines of the live workers, and those not answering. */
  engines: { total: number; unreachable: number };
  /** Every instance by state; `orphaned` are on no live or parked worker (about to be moved). */
  instances: { pending: number; healthy: number; unhealthy: number; failed: number; orphaned: number; teams_pinned: number };
  /** Null without Redis, or when it did not answer in time. */
  queue: TierQueueView | null;
}

/**
 * Live numbers of the worker tier from the database (the workers' heartbeats and the instance
 * rows) and the challenge-server queue (Redis), for staff; operators' Prometheus has the same and
 * more per worker. Judged by the database's clock, as liveness is everywhere else.
 */
export async function getTierOverview(ctx: StaffContext): Promise<TierOverview> {
  const [workers] = await ctx.db.$queryRaw<
    { live: bigint; placeable: bigint; draining: bigint; engine_lost: bigint; parked: bigint; capacity: bigint; stalest: number | null; engines: bigint; engines_lost: bigint }[]
  >`
    WITH live AS (SELECT * FROM challenge_server_workers WHERE last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS}))
    SELECT (SELECT COUNT(*) FROM live)::bigint AS live,
           (SELECT COUNT(*) FROM live WHERE NOT draining AND engine_lost_at IS NULL)::bigint AS placeable,
           (SELECT COUNT(*) FROM live WHERE draining)::bigint AS draining,
           (SELECT COUNT(*) FROM live WHERE engine_lost_at IS NOT NULL)::bigint AS engine_lost,
           (SELECT COUNT(*) FROM challenge_server_workers WHERE parked_until > now() AND last_seen <= now() - make_interval(secs => ${WORKER_STALE_SECONDS}))::bigint AS parked,
           (SELECT COALESCE(SUM(capacity), 0) FROM live)::bigint AS capacity,
           (SELECT EXTRACT(EPOCH FROM now() - MIN(last_seen))::float8 FROM live) AS stalest,
           (SELECT COUNT(DISTINCT NULLIF(engine, '')) FROM live)::bigint AS engines,
           (SELECT COUNT(DISTINCT NULLIF(engine, '')) FROM live WHERE engine_lost_at IS NOT NULL)::bigint AS engines_lost`;
  const instances = await ctx.db.$queryRaw<{ status: string; on_live: boolean; n: bigint }[]>`
    SELECT i.status, (w.id IS NOT NULL) AS on_live, COUNT(*)::bigint AS n
    FROM challenge_server_instances i
    LEFT JOIN challenge_server_workers w ON w.id = i.worker_id
      AND (w.last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS}) OR w.parked_until > now())
    GROUP BY 1, 2`;
  const [pinned] = await ctx.db.$queryRaw<{ n: bigint }[]>`SELECT COUNT(*)::bigint AS n FROM team_instances`;
  const byState = { pending: 0, healthy: 0, unhealthy: 0, failed: 0, orphaned: 0 };
  let load = 0;
  for (const row of instances) {
    const n = Number(row.n);
    if (row.status in byState) byState[row.status as keyof typeof byState] += n;
    if (row.on_live) load += n;
    else byState.orphaned += n;
  }
  return {
    workers: {
      live: Number(workers!.live),
      placeable: Number(workers!.placeable),
      draining: Number(workers!.draining),
      engine_lost: Number(workers!.engine_lost),
      parked: Number(workers!.parked),
      load,
      capacity: Number(workers!.capacity),
      stalest_heartbeat_seconds: workers!.stalest === null ? null : Math.max(0, Math.round(workers!.stalest)),
    },
    engines: { total: Number(workers!.engines), unreachable: Number(workers!.engines_lost) },
    instances: { ...byState, teams_pinned: Number(pinned?.n ?? 0) },
    queue: (await ctx.challengeServers?.queueState()) ?? null,
  };
}
