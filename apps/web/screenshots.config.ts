import { defineConfig } from "@playwright/test";
import e2e from "./playwright.config.ts";

/**
 * `npm run screenshots`: the README's screenshots, taken by a Playwright program against the e2e
 * harness's server on a throwaway database (see e2e/readme.shots.ts). Not part of `npm test`.
 */
const servers = Array.isArray(e2e.webServer) ? e2e.webServer : [e2e.webServer!];
const { SMTP_URL: _smtp, OIDC_ISSUER: _issuer, OIDC_CLIENT_ID: _id, OIDC_CLIENT_SECRET: _secret, OIDC_SCOPES: _scopes, OIDC_STAFF_GROUP: _group, OIDC_PROVIDER_NAME: _provider, FOOTER_TEXT: _footer, ...env } = servers[0]!.env ?? {};

export default defineConfig({
  ...e2e,
  testMatch: /\.shots\.ts$/,
  // The demo event needs neither the mail nor the sign-on servers, nor the worker tier.
  globalSetup: undefined,
  retries: 0,
  timeout: 180_000,
  projects: [{ name: "screenshots", use: { ...e2e.projects![0]!.use } }],
  // Mail goes to the log, and the login page shows no single sign-on button.
  webServer: { ...servers[0]!, env },
});
