import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pLimit, { type Limit } from "p-limit";
import type { Db } from "@flagship/db";
import { CONFIG_DEFAULTS, deriveTeamFlag, JOB_DEFAULTS, WORKER_STALE_SECONDS } from "@flagship/shared";
import { deployDuration, deploys as deployCount, replacements } from "../metrics.ts";
import { type Deployer, type Endpoint, engineReason, engineUnreachable, LABELS, type Unit } from "./deployer.ts";

export interface ConvergerOptions {
  workerId: string;
  deployment: string;
  /** Where health probes connect (the publish address, or loopback when publishing on all). */
  probeHost: string;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** How long a started copy may stay silent on its port before it is replaced. */
  startGraceMs?: number;
  /** How long a failed instance waits before the next try. */
  retryFailedMs?: number;
  /** Engine calls that create or replace units, in flight at once (default 8). */
  deployConcurrency?: number;
  /** Networks kept ready for dedicated instances while any job is dedicated (default 0). */
  networkSpares?: number;
}

interface Row {
  id: number;
  job_id: number;
  /** The job's part of engine names (a slug and a hash of its name); empty for jobs made before it existed. */
  engine_key: string;
  generation: number;
  slot: number | null;
  team_id: number | null;
  /** A dedicated job's warm instance not claimed yet (it becomes a team's when claimed). */
  pooled: boolean;
  revision: number;
  status: string;
  updated_at: Date;
  host: string;
  published: number | null;
  port: number;
  replicas: number;
  memory: bigint;
  cpus: number;
  image: string;
  registry_auth: { username: string; password: string } | null;
  env: Record<string, string>;
  writable: boolean;
  flag_env: string | null;
  /** The challenge's per-team flag secret, when its flags are dynamic. */
  flag_secret: string | null;
}

interface Desired {
  unit: Unit;
  rows: Row[];
}

const PARALLEL = 16;
const PROBE_TIMEOUT_MS = 1000;
const RECHECK_MS = 3000;
/** A copy just started is probed again quickly, from FOLLOW_FIRST_MS growing to FOLLOW_MAX_MS, for FOLLOW_FOR_MS. */
const FOLLOW_FIRST_MS = 50;
const FOLLOW_MAX_MS = 500;
const FOLLOW_FOR_MS = 20_000;

/**
 * Makes one worker's engine run what the database says this worker runs, and reports back what
 * it sees. Units nobody wants any more (their rows gone: job removed, challenge deleted, instance
 * expired, spec replaced) are removed; so are units of workers that are gone. Concurrent requests
 * for a full pass share the next one.
 *
 * New instances do not wait for a full pass: a wake-up starts them at once (`startPending`), a
 * bounded number of engine calls in flight, and a copy just started is probed every few tens of
 * milliseconds until it answers, so a team gets its instance as soon as the service listens. Each
 * unit is handled by one task at a time, whichever started it.
 */
export class Converger {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Units being converged (created, started, followed until healthy), by name. */
  private readonly busy = new Map<string, Promise<void>>();
  /** Engine calls that create or replace units, first come first served. */
  private readonly deploys: Limit;
  /** When each unit copy was first seen not answering, for the start grace. */
  private readonly silentSince = new Map<string, { since: number; port: number }>();
  /** When each unit copy last answered its health check, and where it was probed (for when the engine cannot say). */
  private readonly lastHealthy = new Map<string, { at: number; probe: string }>();

  constructor(
    private readonly db: Db,
    private readonly deployer: Deployer,
    private readonly options: ConvergerOptions,
  ) {
    this.deploys = pLimit(options.deployConcurrency ?? 8);
  }

  /** Resolves when no pass is running and no unit is being converged. */
  async idle(): Promise<void> {
    while (this.running || this.busy.size > 0) {
      if (this.running) await this.running;
      await Promise.all([...this.busy.values()]);
    }
  }

  /** Stops starting or following units; `idle()` then resolves once the tasks in hand are done. */
  halt(): void {
    this.stopped = true;
  }

  /**
   * The wake-up path: starts every unit with an instance waiting for its container (new, reset or
   * moved here) that no task handles yet, without listing the engine or checking the others.
   * Resolves once their tasks are under way (they wait their turn for the engine and are followed
   * until healthy in the background, see `idle()`), with how many it started.
   */
  async startPending(): Promise<number> {
    if (this.stopped) return 0;
    const desired = await this.wanted();
    const waiting = [...desired.values()].filter((d) => !this.busy.has(d.unit.name) && d.rows.some((r) => r.status === "pending"));
    for (const d of waiting) void this.converge(d);
    return waiting.length;
  }

  /**
   * The engine reports that a copy of a unit stopped: its instances are marked down at once (so
   * no request is handed the dead address) and the unit is replaced now, keeping its host port
   * where it can. Never rejects.
   */
  async died(name: string): Promise<void> {
    if (this.stopped) return;
    try {
      const desired = (await this.wanted()).get(name);
      if (!desired) return;
      this.forget(name);
      replacements.inc({ reason: "died" });
      for (const row of desired.rows) if (row.status === "healthy") await this.mark(row, { status: "unhealthy", error: "" });
      // A task converging the unit now finds it stopped on its next look; otherwise one starts now.
      await this.converge(desired);
    } catch (error) {
      this.options.log.warn({ err: error, unit: name }, "could not handle a stopped container");
    }
  }

  /** Runs a pass now, or right after the one in progress. Never rejects: errors are logged. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (error) {
          this.options.log.warn({ err: error, worker: this.options.workerId }, "converge pass failed");
        }
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private rows(): Promise<Row[]> {
    return this.db.$queryRaw<Row[]>`
      SELECT i.id, i.job_id, j.engine_key, i.generation, i.slot, i.team_id, i.pooled, i.revision, i.status, i.updated_at, i.host, i.port AS published,
             j.port, j.replicas, j.memory, j.cpus, j.image, j.registry_auth, j.env, j.writable, j.flag_env,
             CASE WHEN j.flag_env IS NOT NULL AND c.flag_type = 'dynamic' THEN c.flag_metadata->>'secret' END AS flag_secret
      FROM challenge_server_instances i JOIN challenge_server_jobs j ON j.id = i.job_id JOIN challenges c ON c.id = j.challenge_id
      WHERE i.worker_id = ${this.options.workerId}
      ORDER BY i.id`;
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    const { workerId, deployment } = this.options;
    // The engine is listed before the database is read: a unit started meanwhile by the wake-up
    // path was started for a row that this read sees, so it is never taken for an unwanted one.
    // An engine that cannot be reached fails the pass, which then only health-checks the copies
    // where they were last seen (see `checkKnown`); the heartbeat reports the loss so that new
    // instances go to other workers.
    let listed;
    try {
      listed = await this.deployer.list();
    } catch (error) {
      await this.checkKnown().catch((failure: unknown) => this.options.log.warn({ err: failure }, "could not health-check the copies while the engine is away"));
      throw error;
    }
    const desired = await this.wanted();
    const liveIds = await this.liveWorkerIds();
    const removals: string[] = [];
    for (const unit of listed) {
      if (this.busy.has(unit.name)) continue;
      if (desired.has(unit.name)) continue;
      const owner = unit.labels[LABELS.worker];
      if (owner === workerId || (owner !== undefined && !liveIds.has(owner) && unit.labels[LABELS.deployment] === deployment)) {
        removals.push(unit.name);
      }
    }
    await eachLimited(removals, PARALLEL, async (name) => {
      try {
        await this.deployer.remove(name);
        this.forget(name);
      } catch (error) {
        this.options.log.warn({ err: error, unit: name }, "could not remove a unit");
      }
    });
    await eachLimited(
      [...desired.values()].filter((d) => !this.busy.has(d.unit.name)),
      PARALLEL,
      (d) => this.converge(d),
    );
    if (this.deployer.prepare) {
      const dedicated = await this.db.$queryRaw<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM challenge_server_jobs WHERE dedicated) AS any`;
      const count = dedicated[0]?.any ? (this.options.networkSpares ?? 0) : 0;
      // In the background, and only while no unit is being started: a pass never waits for it.
      // Liveness is read again when the spares are swept, which may be well after this pass.
      const live = async () => {
        const ids = await this.liveWorkerIds();
        return (id: string) => ids.has(id);
      };
      void this.deployer
        .prepare(count, live, () => this.stopped || this.deploys.activeCount + this.deploys.pendingCount > 0)
        .catch((error: unknown) => this.options.log.warn({ err: error }, "could not prepare spare networks"));
    }
  }

  /**
   * The engine cannot be asked what runs: every copy is probed on the port it was last seen on (a
   * TCP probe needs no engine). A copy that answers keeps its address (containers usually keep
   * serving through an engine blip); one that does not is marked down, so teams on a shared
   * replica of a host that is really gone move to a healthy replica at once instead of waiting
   * out the engine's grace. Nothing is started, replaced or removed meanwhile.
   */
  private async checkKnown(): Promise<void> {
    const desired = await this.wanted();
    await eachLimited(
      [...desired.values()].filter((d) => !this.busy.has(d.unit.name)),
      PARALLEL,
      async ({ unit, rows }) => {
        const endpoints = rows.flatMap((row, slot): Endpoint[] =>
          row.published === null || (row.status !== "healthy" && row.status !== "unhealthy") ? [] : [{ slot, host: row.host, port: row.published, running: true, probe: this.lastHealthy.get(`${unit.name}#${slot}`)?.probe ?? this.options.probeHost }],
        );
        await this.check(unit, rows, endpoints, { engineAway: true });
      },
    );
  }

  private async liveWorkerIds(): Promise<Set<string>> {
    // A worker parked by a clean stop counts as live: its containers wait for the worker that adopts them.
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      SELECT id FROM challenge_server_workers WHERE last_seen > now() - make_interval(secs => ${WORKER_STALE_SECONDS}) OR parked_until > now()`;
    return new Set(rows.map((r) => r.id));
  }

  /** The units this worker should run, from its instance rows. */
  private async wanted(): Promise<Map<string, Desired>> {
    const rows = await this.rows();
    let prefix = CONFIG_DEFAULTS.flag_prefix;
    if (rows.some((row) => row.flag_secret && row.team_id !== null)) {
      const [stored] = await this.db.$queryRaw<{ value: unknown }[]>`SELECT value FROM config WHERE key = 'flag_prefix'`;
      if (typeof stored?.value === "string" && stored.value !== "") prefix = stored.value;
    }
    return this.desiredUnits(rows, prefix);
  }

  private desiredUnits(rows: Row[], flagPrefix: string): Map<string, Desired> {
    const { deployment, workerId } = this.options;
    const desired = new Map<string, Desired>();
    for (const row of rows) {
      // A warm instance is a dedicated one whose team is not known yet: its own unit and network.
      const shared = row.team_id === null && !row.pooled;
      const grouped = shared && this.deployer.groupsReplicas;
      const job = `fs-${deployment}-${row.engine_key || `j${row.job_id}`}`;
      const name = grouped ? `${job}-g${row.generation}-${shortId(workerId)}` : `${job}-i${row.id}-r${row.revision}`;
      const entry = desired.get(name);
      if (entry) {
        entry.rows.push(row);
        entry.unit.replicas = entry.rows.length;
        continue;
      }
      const labels: Record<string, string> = {
        [LABELS.deployment]: deployment,
        [LABELS.worker]: workerId,
        [LABELS.job]: String(row.job_id),
        [LABELS.generation]: String(row.generation),
        ...(grouped ? {} : { [LABELS.instance]: String(row.id), [LABELS.slot]: String(row.slot ?? 0) }),
        ...(row.team_id !== null && { [LABELS.team]: String(row.team_id) }),
        ...(row.pooled && { [LABELS.pooled]: "true" }),
      };
      desired.set(name, {
        rows: [row],
        unit: {
          name,
          labels,
          image: row.image,
          port: row.port,
          // A dynamic challenge's dedicated instance gets its team's own flag (never a shared one).
          env:
            row.flag_env && row.flag_secret && row.team_id !== null
              ? { ...row.env, [row.flag_env]: deriveTeamFlag(row.flag_secret, row.team_id, flagPrefix) }
              : (row.env ?? {}),
          memory: Number(row.memory),
          cpus: row.cpus,
          writable: row.writable,
          pidsLimit: JOB_DEFAULTS.pidsLimit,
          replicas: 1,
          network: shared
            ? job
            : row.team_id === null
              ? `${job}-w${row.id}`
              : `${job}-t${row.team_id}`,
          registryAuth: row.registry_auth,
          // A replacement takes the port the team was given, where the engine still has it free.
          ...(!grouped && row.published !== null && { hostPort: row.published }),
        },
      });
    }
    for (const entry of desired.values()) entry.rows.sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0));
    return desired;
  }

  /**
   * Converges one unit unless a task already handles it. Resolves once the unit is ensured and
   * checked; copies that were waiting for their container and do not answer yet are followed in
   * the background until they do.
   */
  private converge(desired: Desired): Promise<void> {
    const name = desired.unit.name;
    if (this.busy.has(name) || this.stopped) return Promise.resolve();
    let checked!: () => void;
    const first = new Promise<void>((resolve) => {
      checked = resolve;
    });
    const task = this.convergeUnit(desired, checked)
      .catch((error: unknown) => this.options.log.warn({ err: error, unit: name }, "could not converge a unit"))
      .finally(() => {
        this.busy.delete(name);
        checked();
      });
    this.busy.set(name, task);
    return first;
  }

  private async convergeUnit({ unit, rows }: Desired, checked: () => void): Promise<void> {
    const retryMs = this.options.retryFailedMs ?? 30_000;
    if (rows.every((r) => r.status === "failed" && Date.now() - r.updated_at.getTime() < retryMs)) return;
    // Copies waiting for a container (or replacing one that died): followed closely until they answer.
    const waiting = rows.filter((r) => r.status === "pending" || r.status === "unhealthy");
    // A deploy, for the metrics: a unit made to run for copies that do not answer yet (failed ones retried included).
    const deploying = rows.some((r) => r.status !== "healthy");
    const started = performance.now();
    const deployed = (outcome: "succeeded" | "failed" | "engine_unreachable" | "timed_out") => {
      if (!deploying) return;
      deployCount.inc({ outcome });
      deployDuration.observe({ outcome }, (performance.now() - started) / 1000);
    };
    const endpoints = await this.ensure(unit, rows, (reachable) => deployed(reachable ? "failed" : "engine_unreachable"));
    if (!endpoints) return;
    await this.check(unit, rows, endpoints);
    checked();
    const until = Date.now() + FOLLOW_FOR_MS;
    let delay = FOLLOW_FIRST_MS;
    while (!this.stopped && waiting.some((r) => r.status !== "healthy") && Date.now() < until) {
      await sleep(delay);
      delay = Math.min(delay * 2, FOLLOW_MAX_MS);
      if (this.stopped) return;
      let seen;
      try {
        seen = await this.deployer.observe(unit);
      } catch (error) {
        this.options.log.warn({ err: error, unit: unit.name }, "could not follow a unit");
        return;
      }
      await this.check(unit, rows, seen);
    }
    // A worker stopping mid-deploy leaves it to the next worker, which counts it then.
    if (!this.stopped) deployed(rows.every((r) => r.status === "healthy") ? "succeeded" : "timed_out");
  }

  /** Makes the unit run, a bounded number at once; a failure is reported on its instances. */
  private async ensure(unit: Unit, rows: Row[], failed: (engineAnswered: boolean) => void): Promise<Endpoint[] | null> {
    try {
      return await this.deploys(() => this.deployer.ensure(unit));
    } catch (error) {
      this.options.log.warn({ err: error, unit: unit.name }, "could not deploy a unit");
      failed(!engineUnreachable(error));
      // An engine that cannot be reached is waited out (see `pass`); a refusal is the instance's failure.
      if (!engineUnreachable(error)) await this.failAll(rows, engineReason(error));
      return null;
    }
  }

  /**
   * Health-checks each copy and records what it finds; a copy silent past its grace is replaced.
   * With `engineAway` the endpoints are where the copies were last seen, not what the engine
   * reports: a copy with none is left as it is, and a silent one is only marked down (the engine
   * that would replace it does not answer).
   */
  private async check(unit: Unit, rows: Row[], endpoints: Endpoint[], { engineAway = false } = {}): Promise<void> {
    const graceMs = this.options.startGraceMs ?? 30_000;
    await Promise.all(
      rows.map(async (row, index) => {
        const endpoint = endpoints.find((e) => e.slot === index);
        const key = `${unit.name}#${index}`;
        if (!endpoint?.running || endpoint.port === null) {
          if (!engineAway) await this.mark(row, { status: "pending", error: "" });
          return;
        }
        // A healthy copy on the same port was probed a moment ago: skip, so a pass woken for a
        // new instance is not held up by health checks of all the others. Not while the engine
        // is away: the probe is then the only sign of a host that is gone.
        const recent = this.lastHealthy.get(key);
        if (!engineAway && row.status === "healthy" && row.published === endpoint.port && recent !== undefined && Date.now() - recent.at < RECHECK_MS) return;
        const probeHost = endpoint.probe ?? this.options.probeHost;
        if (await probe(probeHost, endpoint.port)) {
          this.lastHealthy.set(key, { at: Date.now(), probe: probeHost });
          this.silentSince.delete(key);
          if (row.status !== "healthy" || row.published !== endpoint.port || row.host !== endpoint.host) {
            await this.mark(row, { status: "healthy", error: "", host: endpoint.host, port: endpoint.port, container: unit.name });
            await this.db.$executeRaw`UPDATE challenge_server_jobs SET error = '' WHERE id = ${row.job_id} AND error <> ''`;
          }
          return;
        }
        if (engineAway) {
          if (row.status === "healthy") await this.mark(row, { status: "unhealthy", error: "" });
          return;
        }
        // Silence counts per copy: a copy on another port (a replacement) starts its own grace.
        const silent = this.silentSince.get(key);
        const since = silent?.port === endpoint.port ? silent.since : Date.now();
        this.silentSince.set(key, { since, port: endpoint.port });
        if (Date.now() - since >= graceMs) {
          this.silentSince.delete(key);
          await this.mark(row, { status: "unhealthy", error: `Nothing answered on port ${unit.port} for ${Math.round(graceMs / 1000)} s; the container was replaced.` });
          await this.deployer.restart(unit.name, index);
          replacements.inc({ reason: "silent" });
        } else if (row.status === "healthy") {
          await this.mark(row, { status: "unhealthy", error: "" });
        }
      }),
    );
  }

  private async failAll(rows: Row[], reason: string): Promise<void> {
    for (const row of rows) await this.mark(row, { status: "failed", error: reason });
    const jobs = [...new Set(rows.map((r) => r.job_id))];
    if (jobs.length > 0) await this.db.$executeRaw`UPDATE challenge_server_jobs SET error = ${reason} WHERE id = ANY(${jobs})`;
  }

  private forget(name: string): void {
    for (const key of this.silentSince.keys()) if (key.startsWith(`${name}#`)) this.silentSince.delete(key);
    for (const key of this.lastHealthy.keys()) if (key.startsWith(`${name}#`)) this.lastHealthy.delete(key);
  }

  /** Writes what was observed, unless the row moved on meanwhile (reset, reassigned, removed). */
  private async mark(row: Row, change: { status: string; error: string; host?: string; port?: number; container?: string }): Promise<void> {
    if (row.status === change.status && change.host === undefined && change.error === "") return;
    await this.db.$executeRaw`
      UPDATE challenge_server_instances
      SET status = ${change.status}, error = ${change.error}, updated_at = now(),
          host = COALESCE(${change.host ?? null}, host),
          port = CASE WHEN ${change.status} = 'healthy' THEN ${change.port ?? null}::int WHEN ${change.status} = 'pending' THEN NULL ELSE port END,
          container_id = COALESCE(${change.container ?? null}, container_id),
          healthy_at = CASE WHEN ${change.status} = 'healthy' THEN now() ELSE healthy_at END
      WHERE id = ${row.id} AND revision = ${row.revision} AND worker_id = ${this.options.workerId}`;
    row.status = change.status;
    if (change.status === "healthy") {
      row.published = change.port ?? null;
      row.host = change.host ?? row.host;
    }
  }
}

function shortId(id: string): string {
  return id.replace(/[^A-Za-z0-9_.-]/g, "").slice(-24);
}

/**
 * The health check: a TCP connection to the published port that the service accepts. Docker's
 * proxy accepts on the host port even when nothing listens inside and then hangs up at once, so a
 * connection counts only once the service sends something or keeps it open for a moment.
 */
export function probe(host: string, port: number, timeoutMs = PROBE_TIMEOUT_MS, settleMs = 250): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      setTimeout(() => done(true), settleMs);
    });
    socket.once("data", () => done(true));
    socket.once("end", () => done(false));
    socket.once("close", () => done(false));
    socket.once("error", () => done(false));
  });
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const lane = pLimit(limit);
  await Promise.all(items.map((item) => lane(() => fn(item))));
}
