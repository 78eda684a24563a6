import { appRouter, domainMetrics, RedisPublisher, type Services } from "@flagship/api";
import { databasePoolStats } from "@flagship/db";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one server copy. They are served on a listener of their own
 * (METRICS_PORT, see startMetricsListener), never on the public port: request paths, queue depths
 * and pool sizes are for operators, not for players.
 *
 * Requests are labelled by route family, never by raw URL, so that the label sets stay bounded
 * whatever clients send: a REST route's template (`/api/v2/challenges/:id/`), a tRPC procedure's
 * name (`/trpc/teams.join`, "/trpc/unknown" for a name the router lacks), "static" for the web
 * app's files, "page" for the web app's pages (served by the history fallback) and "unmatched" for
 * a path nothing serves (404).
 */

const registries = new WeakMap<FastifyInstance, Registry>();

/** Seconds; from a cached listing (a millisecond) to a request cut at the shutdown timeout. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const TRPC_ROUTE = "/trpc/:path";
const procedures = new Set(Object.keys(appRouter._def.procedures as Record<string, unknown>));

/** The route families a request counts under: one, or one a procedure of a tRPC batch. */
function routesOf(request: FastifyRequest, statusCode: number): string[] {
  const url = request.routeOptions.url;
  if (url === undefined) return [statusCode < 400 ? "page" : "unmatched"];
  if (url === TRPC_ROUTE) {
    const names = ((request.params as { path?: string }).path ?? "").split(",");
    return names.map((name) => (procedures.has(name) ? `/trpc/${name}` : "/trpc/unknown"));
  }
  // The web app's files are routes of their own (one per file of the build): one family.
  if (/\.[A-Za-z0-9]+$/.test(url) && !url.includes(":")) return ["static"];
  return [url];
}

/** A counter whose total is kept elsewhere (a publisher's stats, a socket count): read at each scrape. */
function counterReading(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

export interface SocketStats {
  clients(): number;
  delivered(): number;
}

/**
 * Counts every request of `app` by route family, method and status, and times it; gathers the
 * copy's other numbers (websockets, the event bus, the database pool, the process) at each scrape.
 * Registered before the routes. `/metrics` on the public port answers 404, rather than the web
 * app's page.
 */
export function registerMetrics(app: FastifyInstance, services: Services): { watchSockets(sockets: SocketStats): void } {
  const registry = new Registry();
  registries.set(app, registry);
  collectDefaultMetrics({ register: registry });

  new Gauge({
    name: "flagship_build_info",
    help: "Always 1; the version label says which release this copy runs.",
    labelNames: ["version"] as const,
    registers: [registry],
  }).set({ version: services.version }, 1);

  const requests = new Counter({
    name: "flagship_http_requests_total",
    help: "HTTP requests answered, by route family (REST template, tRPC procedure, static, page, unmatched), method and status code.",
    labelNames: ["route", "method", "code"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "flagship_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's end, by route family and method (a tRPC batch counts once per procedure).",
    labelNames: ["route", "method"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // Callback form, as the other per-request hooks: no promise per request.
  app.addHook("onResponse", (request, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    const code = String(reply.statusCode);
    for (const route of routesOf(request, reply.statusCode)) {
      requests.inc({ route, method: request.method, code });
      duration.observe({ route, method: request.method }, seconds);
    }
    done();
  });
  app.get("/metrics", (_request, reply) => reply.code(404).send({ error: "Not Found" }));

  const events = services.events;
  if (events instanceof RedisPublisher) {
    new Gauge({
      name: "flagship_event_bus_up",
      help: "1 while both connections to Redis are up and events travel between the server copies; 0 during an outage (events reach this copy's sockets only, until replayed).",
      registers: [registry],
      collect() {
        this.set(events.linked ? 1 : 0);
      },
    });
    new Counter({
      name: "flagship_events_published_total",
      help: "Events published by this copy, by path: redis (to every copy) or local_only (this copy's sockets only, during a Redis outage).",
      labelNames: ["path"] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ path: "redis" }, events.stats.published);
        this.inc({ path: "local_only" }, events.stats.localOnly);
      },
    });
    counterReading(registry, "flagship_events_replayed_total", "Events this copy could deliver only to itself during a Redis outage and sent to the other copies once Redis was back.", () => events.stats.replayed);
    counterReading(registry, "flagship_events_dropped_total", "Events lost: a publish that timed out, or more missed during an outage than are kept for replay.", () => events.stats.dropped);
  }

  new Gauge({
    name: "flagship_db_pool_connections",
    help: "Database connections of this copy's pool, by state: busy (running a query or a transaction) or idle.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const pool = databasePoolStats(services.db);
      if (!pool) return;
      this.set({ state: "busy" }, pool.open - pool.idle);
      this.set({ state: "idle" }, pool.idle);
    },
  });
  new Gauge({
    name: "flagship_db_pool_max_connections",
    help: "The most connections this copy's database pool opens.",
    registers: [registry],
    collect() {
      const pool = databasePoolStats(services.db);
      if (pool) this.set(pool.max);
    },
  });
  new Gauge({
    name: "flagship_db_pool_waiting",
    help: "Queries waiting for a database connection because every connection of the pool is busy.",
    registers: [registry],
    collect() {
      const pool = databasePoolStats(services.db);
      if (pool) this.set(pool.waiting);
    },
  });
  new Counter({
    name: "flagship_db_errors_total",
    help: 'Failed database statements and connections, by SQLSTATE class ("23" a constraint, "40" a serialization conflict, "57" the server shutting down...) or "connection" when none could be opened or it was lost.',
    labelNames: ["class"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [errorClass, count] of databasePoolStats(services.db)?.errors ?? []) this.inc({ class: errorClass }, count);
    },
  });

  return {
    watchSockets(sockets) {
      new Gauge({
        name: "flagship_websockets_open",
        help: "Websockets open on this copy.",
        registers: [registry],
        collect() {
          this.set(sockets.clients());
        },
      });
      counterReading(registry, "flagship_websocket_events_delivered_total", "Events written to this copy's websockets, one per socket reached.", sockets.delivered);
    },
  };
}

/** Everything /metrics shows for `app`: its own numbers and the domain's (submissions, hashing). */
export function metricsOf(app: FastifyInstance): Registry {
  const own = registries.get(app);
  if (!own) throw new Error("registerMetrics was not called for this server");
  return Registry.merge([own, domainMetrics]);
}
