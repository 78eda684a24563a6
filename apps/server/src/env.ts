import os from "node:os";
import path from "node:path";
import { parseThrottleRates } from "@flagship/shared";
import { z } from "zod";

const optionalUrl = (protocols: RegExp, example: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.url({ protocol: protocols, error: `must be a URL like ${example}` }).optional())
    .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** A listener of its own for Prometheus' /metrics; unset: none. Workers `npm start` runs take the ports after it. */
  METRICS_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: "must be a port number" }).int().min(1).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/, "postgresql://user:pass@host:5432/db"),
  DATA_DIR: z.string().min(1).default("./data"),
  /** The embedded PostgreSQL's port (without DATABASE_URL); unset: the one it had, else a free one. */
  EMBEDDED_DATABASE_PORT: z.coerce.number({ error: "must be a port number" }).int().min(1).max(65535).optional(),
  REDIS_URL: optionalUrl(/^rediss?$/, "redis://127.0.0.1:6379"),
  /**
   * Registries job images may come from, comma-separated `host[:port]` (e.g. "registry.example.com,10.0.0.5:5000");
   * unset: any registry on a public address. A registry on a loopback, link-local or private address must be listed.
   */
  CHALLENGE_REGISTRIES: z
    .string()
    .regex(/^\s*[A-Za-z0-9.-]+(:\d{1,5})?\s*(,\s*[A-Za-z0-9.-]+(:\d{1,5})?\s*)*$/, "must be registries like registry.example.com,10.0.0.5:5000")
    .transform((list) => list.split(",").map((r) => r.trim().toLowerCase()))
    .optional(),
  /** Workers this process starts beside itself when REDIS_URL is set (challenge servers on the local Docker engine). */
  WORKERS: z.coerce.number({ error: "must be a number" }).int().min(0).max(16).default(1),
  SMTP_URL: optionalUrl(/^smtps?$/, "smtp://user:pass@mail.example.com:587"),
  MAIL_FROM: z.string().default("Flagship <noreply@localhost>"),
  PUBLIC_URL: optionalUrl(/^https?$/, "https://ctf.example.com"),
  THROTTLE: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /** Overrides of the default rates, e.g. "login=20/min,register=100/min". */
  THROTTLE_RATES: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseThrottleRates(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean)),
  FOOTER_TEXT: z.string().default(""),
  // How many proxies in front of the server may set X-Forwarded-For. Off by default: a client
  // could otherwise pick its own address and slip past per-IP rate limits.
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v, ctx) => {
      if (v === "false" || v === "0" || v === "") return false;
      if (v === "true") return true;
      if (/^\d+$/.test(v)) return Number(v);
      ctx.addIssue({ code: "custom", message: "must be false, true or a number of proxy hops" });
      return z.NEVER;
    }),
  WEB_DIST: z.string().optional(),
  /** Whether the server draws the web app's pages (on by default); off, every page is the static shell the browser draws. */
  SERVER_RENDERING: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /**
   * Milliseconds of each second a copy may spend drawing pages; past it, pages are the static shell
   * the browser draws (draw-budget.ts). 250: a quarter of a core. Draws under way at once each
   * count their own time, so more than 1000 lets draws overlap (their database waits).
   */
  SERVER_RENDERING_BUDGET_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(0).max(60_000).default(250),
  /**
   * Whether the budget also shrinks as the machine's processors get busy (on by default), not only
   * as the copy's own thread does: off for a machine whose other work should not hold pages back.
   */
  SERVER_RENDERING_MACHINE_LOAD: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /**
   * Threads drawing pages beside the server's own (draw-threads.ts), started as pages are drawn:
   * by default one fewer than the machine's cores (at least one, at most four).
   */
  SERVER_RENDERING_THREADS: z.coerce
    .number({ error: "must be a number of threads" })
    .int()
    .min(1)
    .max(64)
    .default(() => Math.max(1, Math.min(4, os.availableParallelism() - 1))),
  /** Password hashes (argon2) computed at once; unset: the cores, less one above two (defaultHashConcurrency). */
  HASH_CONCURRENCY: z.coerce.number({ error: "must be a number" }).int().min(1).max(64).optional(),
  /** Hashes that may wait for the pool; beyond it logins and sign-ups answer 429 throttled. */
  HASH_QUEUE: z.coerce.number({ error: "must be a number" }).int().min(0).default(1000),
  /** Longest a hash may expect to wait for the pool (ms, from the moving average of one hash); beyond it 429 throttled. */
  HASH_MAX_WAIT_MS: z.coerce.number({ error: "must be a number" }).int().min(0).default(10_000),
  /** Websockets one client address may hold open on this server copy at once (0: no cap). */
  WS_MAX_PER_IP: z.coerce.number({ error: "must be a number" }).int().min(0).default(100),
  WS_BATCH_MS: z.coerce.number({ error: "must be a number" }).int().min(0).max(5000).default(200),
  /**
   * On SIGTERM, how long the copy keeps serving with /readyz answering 503 before it stops taking
   * connections, so a load balancer that polls readiness moves traffic away first (a second
   * signal ends the wait).
   */
  SHUTDOWN_DELAY_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(0).default(0),
  /** The longest a shutdown waits for in-flight requests before it cuts them and exits. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(1000).default(15_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Single sign-on with OpenID Connect: the provider's issuer URL (discovery) and this client. */
  OIDC_ISSUER: optionalUrl(/^https?$/, "https://login.example.edu/realms/ctf"),
  OIDC_CLIENT_ID: z.string().trim().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_SCOPES: z.string().default("openid email profile"),
  /** Comma-separated email domains that may sign in by single sign-on; empty: any. */
  OIDC_ALLOWED_DOMAINS: z.string().default(""),
  /** Members of this group (in OIDC_GROUPS_CLAIM) become staff when they sign in. */
  OIDC_STAFF_GROUP: z.string().trim().default(""),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default("groups"),
  /**
   * 1: an email the provider sends without an email_verified claim counts as verified (Entra ID
   * never sends the claim); 0 (the default): only email_verified true does.
   */
  OIDC_TRUST_EMAIL: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("0"),
  /** The provider's name on the sign-in button: "Sign in with <name>". */
  OIDC_PROVIDER_NAME: z.string().trim().min(1).max(60).default("your organisation"),
}).superRefine((env, ctx) => {
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) ctx.addIssue({ code: "custom", path: ["OIDC_CLIENT_ID"], message: "is required with OIDC_ISSUER" });
  if (!env.OIDC_ISSUER && env.OIDC_CLIENT_ID) ctx.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "is required with OIDC_CLIENT_ID" });
});

export type Env = z.infer<typeof EnvSchema> & { PUBLIC_URL: string; DATA_DIR: string };

/** Validates the process settings once at start-up; every problem is reported, by name. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid settings in the environment:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return {
    ...env,
    DATA_DIR: path.resolve(env.DATA_DIR),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${env.PORT}`).replace(/\/$/, ""),
  };
}

/** The environment handed on to processes this server starts (the local worker tier). */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}

/**
 * npm start preloads jemalloc into the server (scripts/server-flags.mjs, `serverEnv`) and says so
 * with FLAGSHIP_ALLOCATOR. The preload is the server's alone: taken out of its environment at
 * start (with its MALLOC_CONF), the processes it starts (the embedded PostgreSQL, workers) keep their
 * own allocator. An LD_PRELOAD the operator set is left as it is.
 */
export function keepAllocatorToSelf(env: Record<string, string | undefined> = process.env): void {
  if (env.FLAGSHIP_ALLOCATOR !== "jemalloc") return;
  delete env.LD_PRELOAD;
  delete env.MALLOC_CONF;
  delete env.FLAGSHIP_ALLOCATOR;
}
