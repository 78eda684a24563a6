import type { Db } from "@flagship/db";
import type { ConfigStore } from "./config/config-store.ts";
import type { EventPublisher } from "./events/publisher.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { Throttle } from "./throttle/throttle.ts";
import type { WebhookSender } from "./scoring/webhooks.ts";
import type { ChallengeServerTier } from "./challenge-servers/tier.ts";
import type { OidcProvider } from "./auth/oidc.ts";

/** The signed-in user as the server sees them for one request. */
export interface Actor {
  id: number;
  username: string;
  isStaff: boolean;
  teamId: number | null;
  /** Token row id, so logout and desudo can act on this session. */
  tokenId: number;
  /** The staff member behind an impersonation token, if any. */
  impersonatorId: number | null;
  has2fa: boolean;
  /** For an impersonation: whether the staff member behind it has two-factor authentication. */
  impersonatorHas2fa?: boolean;
}

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Long-lived parts shared by every request of a server process. */
export interface Services {
  db: Db;
  events: EventPublisher;
  config: ConfigStore;
  log: Logger;
  version: string;
  /** Seconds since the epoch; tests may replace it. */
  now: () => number;
  /** Outgoing mail: SMTP, or the log and the outbox. */
  mail: Mailer;
  /** Rate limits shared by both transports (and by every copy when Redis is configured). */
  throttle: Throttle;
  /** Outgoing webhooks (first blood): the worker's queue with Redis, else posted in-process. */
  webhooks?: WebhookSender;
  /** The worker tier's queues (only with Redis): without it challenge servers are disabled. */
  challengeServers?: ChallengeServerTier;
  /**
   * Hashes a new account's password; unset: argon2id (passwords.ts). Only seeding tools (the
   * benchmark's seed, which registers thousands of accounts on a small machine) set it, to reuse
   * one real argon2id hash; the server never does.
   */
  hashPassword?: (password: string) => Promise<string>;
  /** Single sign-on with OpenID Connect (OIDC_ISSUER and OIDC_CLIENT_ID set); unset: off. */
  oidc?: OidcProvider;
  /** Registries (`host[:port]`) job images may come from (CHALLENGE_REGISTRIES); unset: any on a public address. */
  challengeRegistries?: string[];
}

export interface Context extends Services {
  actor: Actor | null;
  ip: string | null;
  /**
   * The browser's single sign-on binding (the HttpOnly cookie set when it began a round trip);
   * a handoff code is redeemed only by the browser that holds it.
   */
  oidcBrowserKey?: string | null;
}

/** The part tests build directly: services plus who is calling. */
export function createInnerContext(services: Services, actor: Actor | null, ip: string | null = null, oidcBrowserKey: string | null = null): Context {
  // Every field named, not `...services`: a spread of the services object cost about 3% of a
  // cheap read's CPU in the profiles (each request builds one), a literal of one shape next to nothing.
  // The type makes leaving a service out a compile error.
  const ctx: { [K in keyof Required<Services>]: Services[K] } & Omit<Context, keyof Services> = {
    db: services.db,
    events: services.events,
    config: services.config,
    log: services.log,
    version: services.version,
    now: services.now,
    mail: services.mail,
    throttle: services.throttle,
    webhooks: services.webhooks,
    challengeServers: services.challengeServers,
    hashPassword: services.hashPassword,
    oidc: services.oidc,
    challengeRegistries: services.challengeRegistries,
    actor,
    ip,
    oidcBrowserKey,
  };
  return ctx;
}
