import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_CS_SPARES } from "./e2e/support/tier.ts";

const PORT = Number(process.env.E2E_PORT ?? 8181);
// Debian's headless build of Chromium when installed: the same engine without the windowing layer,
// a tenth less time and a quarter less CPU over the journeys than the full browser run headless.
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((candidate) => existsSync(candidate)) ?? "/usr/bin/chromium";
// Computed once by the runner and inherited by its workers, so fixtures can reach the database.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `flagship-e2e-${process.pid}-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
// The run's SMTP server (started in globalSetup) listens here; the e2e server sends mail to it.
process.env.E2E_SMTP_PORT ??= String(PORT + 10_000);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT);
// The run's OpenID Provider (started in globalSetup) for the single sign-on journeys.
process.env.E2E_OIDC_PORT ??= String(PORT + 20_000);
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT);
// A second server with the worker tier (Redis, one worker on the local Docker engine) for the
// challenge-server journeys, on its own database.
const CS_PORT = PORT + 1;
/**
 * The server that draws pages (server-rendering.spec.ts), on the same event. PORT + 3 is the
 * first-run journey's own server (first-run.spec.ts).
 */
export const SSR_PORT = PORT + 5;
process.env.E2E_CS_DATA_DIR ??= `${dataDir}-challenge-servers`;
process.env.E2E_CS_DEPLOYMENT ??= `e2e${process.pid}`;

const E2E_THROTTLE_RATES = [
  "login=10000/min",
  "register=10000/min",
  "2fa=10000/min",
  // Journeys sign in to shared accounts many times, some with a wrong password on purpose.
  "login_account=10000/min",
  "2fa_account=10000/min",
  "password_reset=10000/min",
  "request_password_reset=3/hour",
  "resend_verify_email=10000/min",
  "verify_email=10000/min",
  "change_password=10000/min",
  "flag_submit=10000/min",
  "use_hint=10000/min",
  "leaderboard=10000/min",
].join(",");

/** Browser journeys in Debian's chromium against the real server on a throwaway embedded PostgreSQL. */
export default defineConfig({
  testDir: "./e2e",
  globalSetup: ["./e2e/support/mail-server.ts", "./e2e/support/oidc-provider.ts", "./e2e/support/event-set-up.ts"],
  outputDir: process.env.E2E_OUTPUT_DIR ?? "./test-results",
  fullyParallel: false,
  workers: 1,
  // One retry everywhere (a journey failing twice still fails the run): on a shared two-core
  // machine a slow spell can stretch a 10-second journey past its minute. A journey that passed only
  // on its retry is listed as flaky in the report.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A trace is recorded on a journey's retry only: recording one costs every journey about a
    // sixth of its time and a third of the runner's CPU (measured: 70 s against 60 s for six
    // journeys), and a journey that fails twice has its second try's trace.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [
    { name: "chromium", testIgnore: /challenge-servers\.spec\.ts/, use: { ...devices["Desktop Chrome"], channel: undefined } },
    {
      name: "challenge-servers",
      testMatch: /challenge-servers\.spec\.ts/,
      use: { ...devices["Desktop Chrome"], channel: undefined, baseURL: `http://127.0.0.1:${CS_PORT}` },
    },
  ],
  webServer: [{
    command: "node --enable-source-maps apps/server/dist/main.js",
    cwd: path.resolve(import.meta.dirname, "../.."),
    url: `http://127.0.0.1:${PORT}/api/v2/stats/version/`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // Mail goes to a real SMTP server, so new accounts verify their email as in production.
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      // Rate limits are on, raised far out of the way except for password reset requests, so one
      // journey can meet a real 429 (staff are exempt anyway).
      THROTTLE: "on",
      THROTTLE_RATES: E2E_THROTTLE_RATES,
      FOOTER_TEXT: "Flagship end-to-end tests",
      LOG_LEVEL: "warn",
      // Single sign-on against the run's own OpenID Provider (discovered on first use).
      OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
      OIDC_CLIENT_ID: "flagship",
      OIDC_CLIENT_SECRET: "flagship-test-secret-0123456789abcdef",
      OIDC_SCOPES: "openid email profile groups",
      OIDC_STAFF_GROUP: "ctf-staff",
      OIDC_PROVIDER_NAME: "Uni Login",
      // The journeys run on the pages the browser draws; the server-drawn pages have a server of
      // their own below (server-rendering.spec.ts).
      SERVER_RENDERING: "off",
      ...(process.env.WEB_DIST && { WEB_DIST: process.env.WEB_DIST }),
    },
  }, {
    // The same event (the first server's database, once it has started it), its pages drawn on the server.
    command: `sh -c 'DATABASE_URL=postgresql://flagship:flagship@127.0.0.1:$(cat "$E2E_DATA_DIR/postgres.port")/flagship exec node --enable-source-maps apps/server/dist/main.js'`,
    cwd: path.resolve(import.meta.dirname, "../.."),
    url: `http://127.0.0.1:${SSR_PORT}/api/v2/stats/version/`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NODE_ENV: "production",
      PORT: String(SSR_PORT),
      HOST: "127.0.0.1",
      E2E_DATA_DIR: dataDir,
      DATA_DIR: `${dataDir}-server-drawn`,
      THROTTLE: "on",
      THROTTLE_RATES: E2E_THROTTLE_RATES,
      LOG_LEVEL: "warn",
      SERVER_RENDERING: "on",
      // The journeys load pages one after another and a few at once, on a machine busy with the
      // other journeys: the budget is far past what they draw, so no journey meets it by chance (the
      // budget's own journey runs a copy of its own with a small one).
      SERVER_RENDERING_BUDGET_MS: "60000",
      // Nor does the machine's load (the other journeys, the other shard) hold its pages back.
      SERVER_RENDERING_MACHINE_LOAD: "off",
      ...(process.env.WEB_DIST && { WEB_DIST: process.env.WEB_DIST }),
    },
  }, {
    command: "node apps/web/e2e/support/with-redis.mjs node --enable-source-maps apps/server/dist/main.js",
    cwd: path.resolve(import.meta.dirname, "../.."),
    url: `http://127.0.0.1:${CS_PORT}/api/v2/stats/version/`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NODE_ENV: "production",
      PORT: String(CS_PORT),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_CS_DATA_DIR,
      THROTTLE: "off",
      WORKERS: "1",
      DEPLOYMENT_ID: process.env.E2E_CS_DEPLOYMENT,
      INSTANCE_NETWORK_SPARES: String(E2E_CS_SPARES),
      INSTANCE_BIND: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...(process.env.WEB_DIST && { WEB_DIST: process.env.WEB_DIST }),
    },
  }],
});
