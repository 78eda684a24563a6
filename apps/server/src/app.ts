import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import { isDatabaseUnavailable } from "@flagship/db";
import { appRouter, type AppRouter, forgetActors, forgetPlayerStates, mayChangeActors, type Services, setupNeeded, toTrpcError } from "@flagship/api";
import { AppError, refuseUnstorableText } from "@flagship/shared";
import { fastifyRequestHandler, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import type { Env } from "./env.ts";
import { contextFor, restRoutes } from "./rest/adapter.ts";
import { registerRestRoutes } from "./rest/routes/index.ts";
import { fail } from "./rest/envelope.ts";
import { decodeJsonBody } from "./json-body.ts";
import { registerWebsocket } from "./realtime/websocket.ts";
import { registerLogo } from "./logo.ts";
import { registerSecurityHeaders } from "./security.ts";
import { registerMetrics } from "./metrics.ts";

/** What a 503 tells clients to wait before trying again: a database restart takes about this long. */
const RETRY_AFTER_SECONDS = 5;
import { registerEventArchiveRoutes } from "./event-archive.ts";
import { registerFileRoutes } from "./files.ts";
import { registerOidcRoutes } from "./oidc.ts";
import { PageRenderer } from "./pages.ts";
import { PageCompressor, pageEncoding } from "./page-encoding.ts";

const TRPC_BODY_LIMIT = 20 * 1024 * 1024;
const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

export interface BuildOptions {
  env: Env;
  services: Services;
  /** Fastify's logger options, or an existing pino logger to share. */
  logger?: FastifyServerOptions["logger"];
  loggerInstance?: FastifyServerOptions["loggerInstance"];
  /**
   * Count and time every request and gather the copy's numbers for /metrics (see metrics.ts):
   * main.ts sets it when METRICS_PORT is set, as do the tests that read the numbers. Off by
   * default: a copy nobody scrapes does no work per request for them.
   */
  metrics?: boolean;
}

export async function buildServer({ env, services, logger, loggerInstance, metrics: withMetrics = false }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger: logger ?? { level: env.LOG_LEVEL } }),
    // A number trusts that many proxy hops in front of the server.
    trustProxy: typeof env.TRUST_PROXY === "number" ? trustHops(env.TRUST_PROXY) : env.TRUST_PROXY,
    // Per-request logs cost real throughput under load; production keeps warnings and errors.
    logController: new LogController({ disableRequestLogging: env.NODE_ENV === "production" }),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    bodyLimit: 2 * 1024 * 1024,
  });
  // First, so that its timing hook covers every route.
  const metrics = registerMetrics(app, services, { enabled: withMetrics });
  // The pages drawn on the server (registerWebApp): a write drops the visitors' pages they keep.
  const pages = { forget: () => {} };

  // Cached actors and player states must not outlive a change: any mutation other than the game's
  // own drops them before its reply leaves, so the caller's next request already sees the change.
  // Failed requests changed nothing, so they leave the caches warm (and cannot be used to keep
  // every copy's caches cold).
  // Both hooks run for every answer, so they take Fastify's callback form: no promise per request
  // unless caches are to be dropped.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (reply.statusCode < 400 && mayChangeActors(request.method, request.url)) {
      pages.forget();
      Promise.all([forgetActors(services), forgetPlayerStates(services)]).then(
        () => done(null, payload),
        (error: unknown) => done(error as Error),
      );
      return;
    }
    done(null, payload);
  });

  // While the database is unavailable (503), clients are told when to try again.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (reply.statusCode === 503 && !reply.hasHeader("retry-after")) void reply.header("Retry-After", String(RETRY_AFTER_SECONDS));
    done(null, payload);
  });

  await registerSecurityHeaders(app, { development: env.NODE_ENV === "development" });

  await app.register(cors, {
    origin: env.CORS_ORIGINS.length > 0 ? env.CORS_ORIGINS : false,
    // RACTF's client sends X-Exporting for its CSV exports and `exporting` with its member search.
    allowedHeaders: ["Authorization", "Content-Type", "X-Exporting", "Exporting"],
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
  });

  metrics.watchSockets(await registerWebsocket(app, services, { allowedOrigins: env.CORS_ORIGINS, maxPerIp: env.WS_MAX_PER_IP, batchMs: env.WS_BATCH_MS }));

  await app.register(
    async (api) => {
      // The contract accepts JSON only (any charset); an empty body counts as {}.
      api.removeAllContentTypeParsers();
      // Bytes, not a string: Fastify's decoding would turn bytes that are not UTF-8 into U+FFFD.
      api.addContentTypeParser(/^application\/json/i, { parseAs: "buffer" }, (_req, body, done) => {
        let text: string;
        try {
          text = decodeJsonBody(body as Buffer);
        } catch (error) {
          return done(error as AppError, undefined);
        }
        if (text.trim() === "") return done(null, {});
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return done(new AppError("parse_error"), undefined);
        }
        try {
          refuseUnstorableText(parsed);
        } catch (error) {
          return done(error as AppError, undefined);
        }
        done(null, parsed);
      });
      // Callback form, as the onSend hooks above: no promise per request.
      api.addHook("preValidation", (request, _reply, done) => {
        try {
          refuseUnstorableText(request.query);
        } catch (error) {
          return done(error as AppError);
        }
        done();
      });
      api.setErrorHandler((error, request, reply) => {
        if (error instanceof AppError) return fail(reply, error.code, error.details);
        const code = (error as { code?: string }).code;
        if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return fail(reply, "unsupported_media_type");
        if (code === "FST_ERR_CTP_BODY_TOO_LARGE") return fail(reply, "bad_request", "Request body too large.");
        if (code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH" || (error as { statusCode?: number }).statusCode === 400) {
          return fail(reply, "parse_error");
        }
        if (isDatabaseUnavailable(error)) return fail(reply, "service_unavailable");
        request.log.error({ err: error }, "unhandled error");
        return fail(reply, "server_error");
      });
      api.setNotFoundHandler((_request, reply) => fail(reply, "not_found"));
      registerRestRoutes(restRoutes(api, services), { dataDir: env.DATA_DIR });
    },
    { prefix: "/api/v2" },
  );

  // Staff import whole events through tRPC: its routes take bodies up to 20 MB (REST keeps 2 MB).
  // tRPC's own handler on a route of ours (rather than its plugin) so that the body's bytes reach
  // the check below: the plugin decodes them as a string first, turning bytes that are not UTF-8
  // into U+FFFD. A body refused there is answered, as a tRPC error, when the context is built.
  const refusedBodies = new WeakMap<FastifyRequest, AppError>();
  await app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
      try {
        done(null, decodeJsonBody(body as Buffer, trpcInputField));
      } catch (error) {
        refusedBodies.set(request, error as AppError);
        done(null, undefined);
      }
    });
    const trpcOptions = {
      router: appRouter,
      createContext: async ({ req }: { req: FastifyRequest }) => {
        const refused = refusedBodies.get(req);
        if (refused) throw toTrpcError(refused);
        try {
          return await contextFor(services, req);
        } catch (error) {
          // A bad, expired or revoked token is the client's problem (401, as over REST), not the
          // server's: left as it is, tRPC would answer it as an internal error (500).
          if (error instanceof AppError) throw toTrpcError(error);
          if (isDatabaseUnavailable(error)) throw toTrpcError(new AppError("service_unavailable"));
          throw error;
        }
      },
      responseMeta({ errors }) {
        if (errors.some((error) => error.code === "SERVICE_UNAVAILABLE")) return { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } };
        // An error that knows when trying again will work (a full hashing pool) says so.
        const retryAfter = errors.map((error) => (error.cause instanceof AppError ? error.cause.retryAfter : undefined)).find((s) => s !== undefined);
        return retryAfter === undefined ? {} : { headers: { "Retry-After": String(retryAfter) } };
      },
      onError({ error, path }) {
        if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
          app.log.error({ err: error, path }, "tRPC error");
        }
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"];
    scope.all<{ Params: { path: string } }>("/trpc/:path", { bodyLimit: TRPC_BODY_LIMIT }, async (req, res) => {
      await fastifyRequestHandler({ ...trpcOptions, req, res, path: req.params.path });
    });
  });

  registerProbes(app, services);
  await registerFileRoutes(app, services, env.DATA_DIR);
  await registerEventArchiveRoutes(app, services, env.DATA_DIR);
  registerOidcRoutes(app, services, env.PUBLIC_URL);
  registerWebApp(app, env, services, pages);
  registerLogo(app, services, path.join(path.resolve(env.WEB_DIST ?? DEFAULT_WEB_DIST), "favicon.svg"));
  return app;
}

/**
 * A flaw in a tRPC body is reported on the input's field, as the procedures' own checks report
 * theirs: the body wraps the input as `{"json": input}`, or `{"0": {"json": input}, ...}` for a batch.
 */
function trpcInputField(path: (string | null)[]): string | null {
  const input = path[0] === "json" ? path.slice(1) : /^\d+$/.test(path[0] ?? "") && path[1] === "json" ? path.slice(2) : null;
  if (!input || input[1] === null) return null;
  return input[0] ?? null;
}

const draining = new WeakSet<FastifyInstance>();

/** Shutdown has begun: /readyz answers 503 from now on while requests are still served. */
export function startDraining(app: FastifyInstance): void {
  draining.add(app);
}

/**
 * For load balancers and orchestrators: /healthz answers while the process serves requests
 * (liveness); /readyz only while the database answers and the server is not shutting down
 * (readiness), so a proxy stops sending traffic to a copy that cannot serve it.
 */
function registerProbes(app: FastifyInstance, services: Services): void {
  app.addHook("preClose", async () => {
    startDraining(app);
  });
  app.get("/healthz", async (_request, reply) => reply.header("cache-control", "no-store").send({ ok: true }));
  app.get("/readyz", async (_request, reply) => {
    void reply.header("cache-control", "no-store");
    if (draining.has(app)) return reply.code(503).send({ ok: false, reason: "shutting down" });
    try {
      await services.db.$queryRaw`SELECT 1`;
      return reply.send({ ok: true });
    } catch {
      return reply.code(503).header("retry-after", "1").send({ ok: false, reason: "database unavailable" });
    }
  });
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Serves the built web app, answering unknown page URLs with index.html (history fallback). */
function registerWebApp(app: FastifyInstance, env: Env, services: Services, pages: { forget: () => void }): void {
  const root = path.resolve(env.WEB_DIST ?? DEFAULT_WEB_DIST);
  const indexFile = path.join(root, "index.html");
  const hasWeb = existsSync(indexFile);
  // Runtime settings the page reads before it starts, such as the footer text: a JSON data block,
  // which is never run, so the Content-Security-Policy needs no inline script.
  const page = (settings: Record<string, unknown>) => {
    const runtime = JSON.stringify({ footerText: env.FOOTER_TEXT, ...settings }).replace(/</g, "\\u003c");
    return hasWeb
      ? readFileSync(indexFile, "utf8").replace("</head>", `<script type="application/json" id="flagship-runtime">${runtime}</script></head>`)
      : "<!doctype html><title>Flagship</title><p>The web app is not built. Run <code>npm run build</code>.</p>";
  };
  const indexHtml = page({});
  // A server without any account greets its first visitor with the first-run setup. The check
  // costs a query only until the first account exists (setupNeeded keeps the answer after that);
  // a database that cannot answer serves the ordinary page, whose calls then report the outage.
  const setupHtml = page({ setup: true });
  // Pages are drawn on the server when the build has its renderer (the static shell otherwise).
  let renderer: PageRenderer | null = null;
  try {
    renderer =
      hasWeb && env.SERVER_RENDERING === "on"
        ? PageRenderer.load(root, indexHtml, services, {
            footerText: env.FOOTER_TEXT,
            budgetMs: env.SERVER_RENDERING_BUDGET_MS,
            machineLoad: env.SERVER_RENDERING_MACHINE_LOAD === "on",
            threads: env.SERVER_RENDERING_THREADS,
            log: (error) => app.log.error({ err: error }, "a thread drawing pages failed"),
          })
        : null;
  } catch (error) {
    app.log.error({ err: error }, "the web app's server renderer failed to load; pages are drawn in the browser");
  }
  if (renderer) {
    const loaded = renderer;
    pages.forget = () => loaded.forgetShared();
    app.addHook("onClose", () => loaded.close());
  }
  // The same objects every time, so their compressed copies are made once.
  const setupPage = { html: setupHtml, redirect: null };
  const shellPage = { html: indexHtml, redirect: null };
  const pageFor = async (request: FastifyRequest): Promise<{ html: string; redirect: string | null }> => {
    if (await setupNeeded(services.db).catch(() => false)) return setupPage;
    const drawn = await renderer?.page(request);
    return drawn ?? shellPage;
  };
  const compressor = new PageCompressor();

  if (hasWeb) {
    const assets = path.join(root, "assets") + path.sep;
    void app.register(fastifyStatic, {
      root,
      prefix: "/",
      index: false,
      wildcard: false,
      // The build writes .br and .gz copies beside each asset; the best one the client accepts is sent.
      preCompressed: true,
      // The build's manifest is for tooling, not for visitors,
      // nor is the server's renderer (dist/.ssr).
      allowedPath: (pathname) => !pathname.startsWith("/.vite") && !pathname.startsWith("/.ssr"),
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader("Vary", "Accept-Encoding");
        // Hashed file names change with their content: cached for a year, never revalidated.
        // Anything else (the favicon) is revalidated after an hour.
        res.setHeader("Cache-Control", filePath.startsWith(assets) ? "public, max-age=31536000, immutable" : "public, max-age=3600");
      },
    });
  }
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const page = await pageFor(request);
    if (page.redirect) return reply.code(302).header("Cache-Control", "no-cache").redirect(page.redirect);
    // Pages are compressed as they are sent (the build's files have their copies on disk).
    const { body, encoding } = await compressor.encode(page, pageEncoding(request.headers["accept-encoding"]));
    if (encoding) reply.header("Content-Encoding", encoding);
    // The page may be drawn for one viewer (their session cookie): no shared cache keeps it.
    return reply.code(200).header("Cache-Control", "private, no-cache").header("Vary", "Cookie, Accept-Encoding").type("text/html; charset=utf-8").send(body);
  };
  app.get("/", (request, reply) => sendIndex(request, reply));
  app.setNotFoundHandler(async (request, reply) => {
    const isPage = (request.method === "GET" || request.method === "HEAD") && !request.url.startsWith("/trpc");
    if (isPage && !/\.[a-z0-9]+$/i.test(request.url.split("?")[0] ?? "")) return sendIndex(request, reply);
    return reply.code(404).send({ error: "Not Found" });
  });
}
