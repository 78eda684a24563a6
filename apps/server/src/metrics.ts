import { appRouter, domainMetrics, RedisPublisher, type Services } from "@flagship/api";
import { databasePoolStats } from "@flagship/db";
import type { FastifyInstance } from "fastify";
import { pageStats } from "./pages.ts";
import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from "prom-client";

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
/** A tRPC procedure's family by name; "/trpc/unknown" for a name the router lacks. */
const procedures = new Map(Object.keys(appRouter._def.procedures as Record<string, unknown>).map((name) => [name, `/trpc/${name}`]));
const procedureFamily = (name: string) => procedures.get(name) ?? "/trpc/unknown";

/** Route families by route template: the web app's files are routes of their own (one per file of the build), one family. */
const families = new Map<string, string>();

function familyOf(url: string): string {
  let family = families.get(url);
  if (family === undefined) {
    family = /\.[A-Za-z0-9]+$/.test(url) && !url.includes(":") ? "static" : url;
    families.set(url, family);
  }
  return family;
}

type Reading = number | undefined | Iterable<readonly [labels: Record<string, string>, value: number]>;

/**
 * A counter or gauge whose value is kept elsewhere (a publisher's stats, a socket count, the
 * database pool): read at each scrape. `read` gives one value, one per label set, or nothing
 * (the series is left out, e.g. no pool to read).
 */
function reading(registry: Registry, kind: "counter" | "gauge", name: string, help: string, read: () => Reading, labelNames: string[] = []): void {
  const settle = (metric: Counter | Gauge, labels: Record<string, string>, value: number) => {
    if (metric instanceof Counter) metric.inc(labels, value);
    else metric.set(labels, value);
  };
  const collect = function (this: Counter | Gauge) {
    const value = read();
    this.reset();
    if (value === undefined) return;
    if (typeof value === "number") settle(this, {}, value);
    else for (const [labels, v] of value) settle(this, labels, v);
  };
  if (kind === "counter") new Counter({ name, help, labelNames, registers: [registry], collect });
  else new Gauge({ name, help, labelNames, registers: [registry], collect });
}

export interface SocketStats {
  clients(): number;
  delivered(): number;
}

export interface ServerMetrics {
  /** Reads the copy's websockets at each scrape (nothing, without metrics). */
  watchSockets(sockets: SocketStats): void;
}

/** The requests of one route family, method and status, and the timing they add to. */
interface RequestSeries {
  labels: { route: string; method: string; code: string };
  count: number;
  timing: Timing;
}

/** The answer times of one route family and method: a count per bucket of LATENCY_BUCKETS (not cumulative; the last past them all), the sum and the count. */
interface Timing {
  labels: { route: string; method: string };
  buckets: number[];
  sum: number;
  count: number;
}

function timingOf(timings: Map<string, Map<string, Timing>>, route: string, method: string): Timing {
  let byMethod = timings.get(route);
  if (!byMethod) timings.set(route, (byMethod = new Map()));
  let timing = byMethod.get(method);
  if (!timing) byMethod.set(method, (timing = { labels: { route, method }, buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
  return timing;
}

/**
 * A histogram over LATENCY_BUCKETS whose numbers are kept in `timings` (read at each scrape), as
 * a metric of a prom-client registry: what Histogram#get gives, the cumulative buckets with
 * their `le`, the sum and the count of each label set.
 */
function histogramOf(name: string, help: string, timings: () => Timing[]): Metric {
  const metric = {
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const timing of timings()) {
        let cumulative = 0;
        for (const [i, bound] of [...LATENCY_BUCKETS, "+Inf" as const].entries()) {
          cumulative += timing.buckets[i]!;
          values.push({ labels: { ...timing.labels, le: bound }, value: cumulative, metricName: `${name}_bucket` });
        }
        values.push({ labels: timing.labels, value: timing.sum, metricName: `${name}_sum` }, { labels: timing.labels, value: timing.count, metricName: `${name}_count` });
      }
      return { name, help, type: "histogram", values, aggregator: "sum" };
    },
    // The registry's reset: the numbers restart from 0.
    reset() {
      for (const timing of timings()) {
        timing.buckets.fill(0);
        timing.sum = 0;
        timing.count = 0;
      }
    },
  };
  return metric as unknown as Metric;
}

/**
 * `/metrics` on the public port answers 404, rather than the web app's page. With `enabled`
 * (METRICS_PORT set: main.ts; and the tests that read the numbers), also counts every request of
 * `app` by route family, method and status, times it, and gathers the copy's other numbers
 * (websockets, the event bus, the database pool, the process) at each scrape; registered before
 * the routes. Without, a copy does no work per request for metrics: no hook, no registry
 * (metricsOf throws). The domain's numbers (packages/api/src/observability/metrics.ts) are kept
 * either way, process-wide: a flag submission adds 1 to a plain number of its outcome; the rarer
 * first bloods, batches of solves and password hashes observe prom-client's metrics, a
 * microsecond against the database work or the hash each of them is.
 */
export function registerMetrics(app: FastifyInstance, services: Services, { enabled }: { enabled: boolean }): ServerMetrics {
  app.get("/metrics", (_request, reply) => reply.code(404).send({ error: "Not Found" }));
  if (!enabled) return { watchSockets() {} };

  const registry = new Registry();
  registries.set(app, registry);
  collectDefaultMetrics({ register: registry });

  new Gauge({
    name: "flagship_build_info",
    help: "Always 1; the version label says which release this copy runs.",
    labelNames: ["version"] as const,
    registers: [registry],
  }).set({ version: services.version }, 1);

  // Each request adds to plain numbers of its series (found through maps, nothing allocated);
  // prom-client's own inc and observe would build and hash a label key at every call, a cost the
  // hottest paths feel. The numbers become Prometheus' at each scrape.
  const series = new Map<string, Map<string, Map<number, RequestSeries>>>();
  const timings = new Map<string, Map<string, Timing>>();
  const record = (route: string, method: string, status: number, seconds: number) => {
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let one = byStatus.get(status);
    if (!one) byStatus.set(status, (one = { labels: { route, method, code: String(status) }, count: 0, timing: timingOf(timings, route, method) }));
    one.count++;
    const timing = one.timing;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    timing.buckets[bucket]!++;
    timing.sum += seconds;
    timing.count++;
  };
  reading(
    registry,
    "counter",
    "flagship_http_requests_total",
    "HTTP requests answered, by route family (REST template, tRPC procedure, static, page, unmatched), method and status code.",
    function* () {
      for (const byMethod of series.values()) for (const byStatus of byMethod.values()) for (const one of byStatus.values()) yield [one.labels, one.count] as const;
    },
    ["route", "method", "code"],
  );
  registry.registerMetric(
    histogramOf(
      "flagship_http_request_duration_seconds",
      "Time from a request's arrival to its answer's end, by route family and method (a tRPC batch counts once per procedure).",
      () => [...timings.values()].flatMap((byMethod) => [...byMethod.values()]),
    ),
  );
  // Callback form, as the other per-request hooks: no promise per request. Named, for the route listing.
  app.addHook("onResponse", function countAndTime(request, reply, done) {
    const seconds = reply.elapsedTime / 1000;
    const status = reply.statusCode;
    const url = request.routeOptions.url;
    if (url === undefined) record(status < 400 ? "page" : "unmatched", request.method, status, seconds);
    else if (url !== TRPC_ROUTE) record(familyOf(url), request.method, status, seconds);
    else {
      // A tRPC batch counts once per procedure.
      const path = (request.params as { path?: string }).path ?? "";
      if (!path.includes(",")) record(procedureFamily(path), request.method, status, seconds);
      else for (const name of path.split(",")) record(procedureFamily(name), request.method, status, seconds);
    }
    done();
  });

  const events = services.events;
  if (events instanceof RedisPublisher) {
    reading(
      registry,
      "gauge",
      "flagship_event_bus_up",
      "1 while both connections to Redis are up and events travel between the server copies; 0 during an outage (events reach this copy's sockets only, until replayed).",
      () => (events.linked ? 1 : 0),
    );
    reading(
      registry,
      "counter",
      "flagship_events_published_total",
      "Events published by this copy, by path: redis (to every copy) or local_only (this copy's sockets only, during a Redis outage).",
      () => [
        [{ path: "redis" }, events.stats.published],
        [{ path: "local_only" }, events.stats.localOnly],
      ],
      ["path"],
    );
    reading(registry, "counter", "flagship_events_replayed_total", "Events this copy could deliver only to itself during a Redis outage and sent to the other copies once Redis was back.", () => events.stats.replayed);
    reading(registry, "counter", "flagship_events_dropped_total", "Events lost: a message of this copy's that never came back through Redis, or more missed during an outage than are kept for replay.", () => events.stats.dropped);
  }

  reading(
    registry,
    "counter",
    "flagship_pages_total",
    "Pages this copy answered with the server's drawing, by how: drawn (for the viewer, or for visitors), kept (a visitors' page drawn earlier, served again) or over_budget (the static shell, which the browser draws, because drawing pages had taken this copy's SERVER_RENDERING_BUDGET_MS of the last second, less the share its API calls or the machine's other work took).",
    () => [
      [{ how: "drawn" }, pageStats.drawn],
      [{ how: "kept" }, pageStats.kept],
      [{ how: "over_budget" }, pageStats.overBudget],
    ],
    ["how"],
  );

  const pool = () => databasePoolStats(services.db);
  reading(
    registry,
    "gauge",
    "flagship_db_pool_connections",
    "Database connections of this copy's pool, by state: busy (running a query or a transaction) or idle.",
    () => {
      const stats = pool();
      return stats && [
        [{ state: "busy" }, stats.open - stats.idle],
        [{ state: "idle" }, stats.idle],
      ];
    },
    ["state"],
  );
  reading(registry, "gauge", "flagship_db_pool_max_connections", "The most connections this copy's database pool opens.", () => pool()?.max);
  reading(registry, "gauge", "flagship_db_pool_waiting", "Queries waiting for a database connection because every connection of the pool is busy.", () => pool()?.waiting);
  reading(
    registry,
    "counter",
    "flagship_db_errors_total",
    'Failed database statements and connections, by SQLSTATE class ("23" a constraint, "40" a serialization conflict, "57" the server shutting down...) or "connection" when none could be opened or it was lost.',
    () => [...(pool()?.errors ?? [])].map(([errorClass, count]) => [{ class: errorClass }, count] as const),
    ["class"],
  );

  return {
    watchSockets(sockets) {
      reading(registry, "gauge", "flagship_websockets_open", "Websockets open on this copy.", sockets.clients);
      reading(registry, "counter", "flagship_websocket_events_delivered_total", "Events written to this copy's websockets, one per socket reached.", sockets.delivered);
    },
  };
}

/** Everything /metrics shows for `app`: its own numbers and the domain's (submissions, hashing). */
export function metricsOf(app: FastifyInstance): Registry {
  const own = registries.get(app);
  if (!own) throw new Error("this server was built without metrics (buildServer's metrics option, set with METRICS_PORT)");
  return Registry.merge([own, domainMetrics]);
}
