import { readFileSync } from "node:fs";
import { ConfigStore, createChallengeServerTier, createOidcProvider, createMailer, RESYNC_EVENT, createThrottle, createWebhookSender, type EventPublisher, InProcessPublisher, type Logger, type Services } from "@flagship/api";
import type { Env } from "./env.ts";
import type { Db } from "@flagship/db";

const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

type OidcEnv = Pick<
  Env,
  "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET" | "OIDC_SCOPES" | "OIDC_ALLOWED_DOMAINS" | "OIDC_STAFF_GROUP" | "OIDC_GROUPS_CLAIM" | "OIDC_PROVIDER_NAME" | "OIDC_TRUST_EMAIL"
>;
type ServiceSettings = Pick<Env, "SMTP_URL" | "MAIL_FROM" | "PUBLIC_URL" | "THROTTLE" | "THROTTLE_RATES" | "REDIS_URL"> & Partial<Pick<Env, "CHALLENGE_REGISTRIES">> & Partial<OidcEnv>;

/** Single sign-on, when OIDC_ISSUER and OIDC_CLIENT_ID are set; the provider sends browsers back to PUBLIC_URL/auth/oidc/callback. */
function oidcFrom(env: ServiceSettings): Services["oidc"] {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) return undefined;
  return createOidcProvider({
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    ...(env.OIDC_CLIENT_SECRET && { clientSecret: env.OIDC_CLIENT_SECRET }),
    scopes: env.OIDC_SCOPES ?? "openid email profile",
    allowedDomains: env.OIDC_ALLOWED_DOMAINS ?? "",
    staffGroup: env.OIDC_STAFF_GROUP ?? "",
    groupsClaim: env.OIDC_GROUPS_CLAIM ?? "groups",
    displayName: env.OIDC_PROVIDER_NAME ?? "your organisation",
    redirectUri: `${env.PUBLIC_URL}/auth/oidc/callback`,
    trustEmail: env.OIDC_TRUST_EMAIL === "1",
  });
}

export function createServices(options: { db: Db; log: Logger; events?: EventPublisher; env: ServiceSettings }): Services {
  const events = options.events ?? new InProcessPublisher();
  const config = new ConfigStore(options.db);
  // Another server copy changed the config: drop our cached copy at once.
  events.subscribe((event) => {
    if (event.kind === "internal" && (event.name === "config_changed" || event.name === RESYNC_EVENT)) config.invalidate();
  });
  const oidc = oidcFrom(options.env);
  return {
    db: options.db,
    events,
    config,
    log: options.log,
    version: VERSION,
    now: () => Math.floor(Date.now() / 1000),
    mail: createMailer({
      db: options.db,
      log: options.log,
      smtpUrl: options.env.SMTP_URL,
      from: options.env.MAIL_FROM,
      publicUrl: options.env.PUBLIC_URL,
    }),
    throttle: createThrottle({ enabled: options.env.THROTTLE === "on", redisUrl: options.env.REDIS_URL, rates: options.env.THROTTLE_RATES, log: options.log }),
    webhooks: createWebhookSender({ redisUrl: options.env.REDIS_URL, log: options.log }),
    ...(oidc && { oidc }),
    ...(options.env.CHALLENGE_REGISTRIES && { challengeRegistries: options.env.CHALLENGE_REGISTRIES }),
    ...(options.env.REDIS_URL && { challengeServers: createChallengeServerTier({ redisUrl: options.env.REDIS_URL, log: options.log }) }),
  };
}
