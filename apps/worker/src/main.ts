import { type MetricsListener, startMetricsListener } from "@flagship/api";
import { connectDatabase } from "@flagship/db";
import { QUEUES, redisConnection } from "@flagship/jobs";
import { writeFile } from "node:fs/promises";
import Docker from "dockerode";
import pino from "pino";
import { startChallengeServerTier, type RunningTier } from "./challenge-servers/runtime.ts";
import { drainEngine } from "./challenge-servers/drain.ts";
import { defaultWorkerId, loadWorkerEnv, publicHostOf } from "./env.ts";
import { createWorkerMetrics } from "./metrics.ts";
import { startWebhookWorker } from "./webhooks.ts";

async function main(): Promise<void> {
  let env;
  try {
    env = loadWorkerEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const log = pino({ level: env.LOG_LEVEL });
  const connection = redisConnection(env.REDIS_URL);
  const database = await connectDatabase({ databaseUrl: env.DATABASE_URL, dataDir: "", poolSize: 5 });
  const db = database.db;

  if (process.argv.includes("--drain")) {
    // `npm run worker -- --drain`: takes this host's engine out of the tier, then exits.
    const code = await drainEngine({ db, connection, docker: new Docker(), backend: env.CHALLENGE_BACKEND, deployment: env.DEPLOYMENT_ID ?? (await defaultDeployment(db)), ...(env.WORKER_ID !== undefined && { workerId: env.WORKER_ID }), out: (line) => console.log(line) }).catch(
      (error: unknown) => {
        console.error(`Could not drain this host: ${(error as Error).message}`);
        return 1;
      },
    );
    await database.close();
    process.exit(code);
  }
  const workerId = env.WORKER_ID ?? defaultWorkerId();

  const webhooks = startWebhookWorker({ db, connection, concurrency: env.CONCURRENCY, log });

  // Healthy: the tier's heartbeats reach the database (or, without the tier, Redis answers).
  const touchHealth = () => {
    if (env.HEALTH_FILE) void writeFile(env.HEALTH_FILE, String(Date.now())).catch(() => undefined);
  };
  let tier: RunningTier | undefined;
  if (env.CHALLENGE_SERVERS === "on") {
    const docker = new Docker();
    const deployment = env.DEPLOYMENT_ID ?? (await defaultDeployment(db));
    try {
      tier = await startChallengeServerTier({
        db,
        connection,
        docker,
        workerId,
        // Without WORKER_ID the worker takes over one its engine's cleanly stopped workers left.
        adopt: env.WORKER_ID === undefined,
        restartGraceSeconds: env.WORKER_RESTART_GRACE,
        engineGraceSeconds: env.ENGINE_LOSS_GRACE,
        deployment,
        bindAddress: env.INSTANCE_BIND,
        publicHost: publicHostOf(env),
        capacity: env.WORKER_CAPACITY,
        subnetPool: env.INSTANCE_SUBNET_POOL,
        networkSpares: env.INSTANCE_NETWORK_SPARES,
        deployConcurrency: env.DEPLOY_CONCURRENCY,
        onHeartbeat: touchHealth,
        ...(env.INSTANCE_PROBE_HOST && { probeHost: env.INSTANCE_PROBE_HOST }),
        backend: env.CHALLENGE_BACKEND,
        log,
      });
    } catch (error) {
      log.error({ err: error }, "the Docker engine could not be reached: this worker delivers webhooks only (set CHALLENGE_SERVERS=off to silence this)");
    }
  }
  log.info({ worker: tier?.workerId ?? workerId, challengeServers: tier !== undefined }, "worker started");
  let metrics: { listener: MetricsListener; close(): Promise<void> } | undefined;
  if (env.METRICS_PORT !== undefined) {
    const gathered = createWorkerMetrics({ db, connection, queues: Object.values(QUEUES), ...(tier && { tier, lastHeartbeat: tier.lastHeartbeat }) });
    try {
      metrics = { listener: await startMetricsListener(gathered.registry, { host: env.METRICS_HOST, port: env.METRICS_PORT }), close: gathered.close };
      // The port taken, also when the system picked it (METRICS_PORT=0).
      log.info({ metricsPort: metrics.listener.port }, `Metrics for Prometheus at http://${env.METRICS_HOST}:${metrics.listener.port}/metrics`);
    } catch (error) {
      // As a server whose PORT is taken: the operator asked for this listener, so it is fatal.
      log.error({ err: error }, "could not start the metrics listener (METRICS_PORT)");
      await Promise.all([gathered.close(), webhooks.close(), tier?.stop()]);
      await database.close();
      process.exit(1);
    }
  }
  if (!tier) {
    const healthTimer = setInterval(() => {
      void webhooks.client.then((client) => (client as unknown as { ping(): Promise<string> }).ping()).then(touchHealth, () => undefined);
    }, 5000);
    healthTimer.unref();
  }

  // Finish the jobs in hand, then exit: BullMQ hands unfinished ones to another worker. The
  // challenge servers keep running for a worker restarting on this engine (WORKER_RESTART_GRACE).
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    log.info("worker shutting down");
    await Promise.all([webhooks.close(), tier?.stop(), metrics?.listener.close(), metrics?.close()]);
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
}

/** Without DEPLOYMENT_ID, the database's name tells installations on one engine apart. */
async function defaultDeployment(db: import("@flagship/db").Db): Promise<string> {
  const rows = await db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
  return (rows[0]?.name ?? "flagship").toLowerCase().replace(/[^a-z0-9_.-]/g, "").slice(0, 32) || "flagship";
}

void main();
