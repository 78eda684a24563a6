import { createHash, randomBytes } from "node:crypto";
import { isUniqueViolation } from "@flagship/db";
import { AppError, emailAllowed, type ErrorCode, eventGates, LIMITS, parseInput } from "@flagship/shared";
import * as oidc from "openid-client";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import type { AuthedContext } from "../guards.ts";
import { assertMayLogIn } from "./login.ts";
import { createOwnTeam, FIRST_ACCOUNT_LOCK } from "./register.ts";
import { issueToken, loginSession } from "./tokens.ts";

/**
 * Single sign-on with OpenID Connect: the authorization-code flow with PKCE (S256), state and
 * nonce, through the openid-client library (discovery, token exchange, ID token validation).
 *
 * A round trip: the browser opens /auth/oidc/start, which keeps the PKCE verifier, nonce and the
 * state's hash server-side (OidcFlow), binds them to the browser with a cookie and sends it to the
 * provider; the provider calls back /auth/oidc/callback, where the code is exchanged and the
 * identity checked; the outcome waits for the web app under a one-time handoff code that the web
 * app redeems over tRPC (a session token for a sign-in, the link for a signed-in account).
 *
 * Both the callback and the redeem require the cookie of the browser that started, so a code that
 * leaks (or that an attacker made and sends a victim to) is worth nothing elsewhere; a link is
 * started by the signed-in account itself (its id is kept on the round trip) and only that account
 * may redeem it.
 */
export interface OidcSettings {
  /** The issuer URL; its /.well-known/openid-configuration is read on first use. */
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE only). */
  clientSecret?: string;
  /** Space-separated scopes asked for; openid is always among them. */
  scopes: string;
  /** Comma-separated email domains allowed to sign in or link; empty: any. */
  allowedDomains: string;
  /** A group whose members become staff on sign-in; empty: none. */
  staffGroup: string;
  /** The claim that lists the user's groups. */
  groupsClaim: string;
  /** The provider's name on the buttons ("Sign in with ..."). */
  displayName: string;
  /** Where the provider sends the browser back: PUBLIC_URL + /auth/oidc/callback. */
  redirectUri: string;
  /**
   * OIDC_TRUST_EMAIL: take an email the provider sends without an email_verified claim as verified
   * (some providers, such as Entra ID, never send the claim). An explicit false is never trusted.
   */
  trustEmail?: boolean;
}

/** The configured provider: its settings and its discovered metadata (read once, on first use). */
export interface OidcProvider {
  settings: OidcSettings;
  configuration(): Promise<oidc.Configuration>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function createOidcProvider(settings: OidcSettings): OidcProvider {
  let discovered: Promise<oidc.Configuration> | null = null;
  return {
    settings,
    configuration() {
      discovered ??= oidc
        .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret ? { client_secret: settings.clientSecret } : undefined, settings.clientSecret ? undefined : oidc.None(), {
          // Plain http only for a provider on this machine (development and tests).
          ...(LOOPBACK.has(new URL(settings.issuer).hostname) && new URL(settings.issuer).protocol === "http:" && { execute: [oidc.allowInsecureRequests] }),
        })
        .catch((error: unknown) => {
          // A provider that was down is asked again next time.
          discovered = null;
          throw error;
        });
      return discovered;
    },
  };
}

/** What we learn from the provider about the person signing in. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  /** The provider's email_verified claim; null when it sends none. */
  emailVerified: boolean | null;
  /** preferred_username, else the name, else null. */
  username: string | null;
  groups: string[];
}

export type OidcPurpose = "login" | "link";

const FLOW_SECONDS = 600;
const HANDOFF_SECONDS = 120;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const random = () => randomBytes(32).toString("base64url");

function provider(ctx: Context): OidcProvider {
  if (!ctx.oidc) throw new AppError("sso_not_configured");
  return ctx.oidc;
}

/** Public: whether single sign-on is set up, and the provider's name for the buttons. */
export function oidcInfo(ctx: Context): { enabled: boolean; name: string } {
  return { enabled: Boolean(ctx.oidc), name: ctx.oidc?.settings.displayName ?? "" };
}

/** Abandoned round trips and unredeemed handoffs go (expires_at is indexed). */
async function sweepExpired(ctx: Context): Promise<void> {
  await ctx.db.oidcFlow.deleteMany({ where: { expiresAt: { lt: new Date(ctx.now() * 1000) } } });
}

/**
 * /auth/oidc/start: a new round trip. Returns the provider's authorization URL and the value of
 * the browser-binding cookie the caller must set (only its hash is kept). A link is begun by the
 * signed-in account from its own sign-in (not a personal token, not while impersonating), whose id
 * the round trip keeps.
 */
export async function beginOidc(ctx: Context, purpose: OidcPurpose): Promise<{ url: string; browserKey: string }> {
  const { settings } = provider(ctx);
  let accountId: number | null = null;
  if (purpose === "link") {
    if (!ctx.actor) throw new AppError("not_authenticated");
    // A linked identity signs in for good: not something a personal token or an impersonation may add.
    await loginSession(ctx.db, ctx.actor);
    accountId = ctx.actor.id;
  }
  await ctx.throttle.check(ctx, "login");
  const configuration = await provider(ctx).configuration();
  const now = new Date(ctx.now() * 1000);
  await sweepExpired(ctx);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browserKey = random();
  await ctx.db.oidcFlow.create({
    data: { stateHash: sha256(state), browserHash: sha256(browserKey), codeVerifier, nonce, purpose, resultUserId: accountId, expiresAt: new Date(now.getTime() + FLOW_SECONDS * 1000) },
  });
  const scopes = new Set(["openid", ...settings.scopes.split(/[\s,]+/).filter(Boolean)]);
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: settings.redirectUri,
    scope: [...scopes].join(" "),
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url: url.href, browserKey };
}

/**
 * GET /auth/oidc/callback: exchanges the code (checking state, nonce, PKCE and the ID token) and
 * settles the outcome. Returns the web app path to send the browser to: /login or /settings with
 * `oidc=<handoff code>`, or with `oidc_error=<error code>`.
 */
export async function finishOidcCallback(ctx: Context, input: { callbackUrl: string; browserKey: string | null }): Promise<string> {
  const callback = new URL(input.callbackUrl);
  const state = callback.searchParams.get("state");
  const flow = state && input.browserKey ? await ctx.db.oidcFlow.findUnique({ where: { stateHash: sha256(state) } }) : null;
  const back = flow?.purpose === "link" ? "/settings" : "/login";
  const failWith = (code: ErrorCode) => `${back}?oidc_error=${code}`;
  // Another browser's callback spends nothing: the flow stays for the browser that started it.
  if (!flow || flow.handoffHash !== null || flow.browserHash !== sha256(input.browserKey ?? "")) return failWith("sso_failed");
  try {
    // Taken at once: a state is good for one callback only.
    const { count } = await ctx.db.oidcFlow.deleteMany({ where: { id: flow.id, handoffHash: null } });
    if (count !== 1 || flow.expiresAt.getTime() < ctx.now() * 1000) return failWith("sso_failed");
    if (flow.purpose === "link" && flow.resultUserId === null) return failWith("sso_failed");

    let identity: OidcIdentity;
    try {
      identity = await exchange(ctx, callback, flow);
    } catch (error) {
      ctx.log.warn({ err: error }, "single sign-on callback refused");
      return failWith(error instanceof AppError ? error.code : "sso_failed");
    }

    const handoff = random();
    const expiresAt = new Date((ctx.now() + HANDOFF_SECONDS) * 1000);
    const handoffRow = { stateHash: sha256(random()), browserHash: flow.browserHash, codeVerifier: "", nonce: "", handoffHash: sha256(handoff), expiresAt };
    if (flow.purpose === "link") {
      assertDomainAllowed(ctx, identity);
      await ctx.db.oidcFlow.create({
        data: {
          ...handoffRow,
          purpose: "link",
          // The account that began the link: only it may redeem the code.
          resultUserId: flow.resultUserId,
          resultIssuer: identity.issuer,
          resultSubject: identity.subject,
          resultEmail: identity.email ?? "",
        },
      });
      return `/settings?oidc=${handoff}`;
    }
    const userId = await signInWithIdentity(ctx, identity);
    await ctx.db.oidcFlow.create({ data: { ...handoffRow, purpose: "login", resultUserId: userId } });
    return `/login?oidc=${handoff}`;
  } catch (error) {
    if (error instanceof AppError) return failWith(error.code);
    ctx.log.error({ err: error }, "single sign-on callback failed");
    return failWith("sso_failed");
  }
}

/** The code for tokens (the library checks state, nonce, PKCE, issuer and the ID token), then the claims. */
async function exchange(ctx: Context, callback: URL, flow: { stateHash: string; codeVerifier: string; nonce: string }): Promise<OidcIdentity> {
  const { settings } = provider(ctx);
  const configuration = await provider(ctx).configuration();
  const state = callback.searchParams.get("state") ?? "";
  // The library wants the URL the provider redirected to; ours is the registered redirect URI.
  const current = new URL(settings.redirectUri);
  current.search = callback.search;
  const tokens = await oidc.authorizationCodeGrant(configuration, current, {
    pkceCodeVerifier: flow.codeVerifier,
    expectedState: state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new AppError("sso_failed");
  let claims: Record<string, unknown> = { ...idClaims };
  if (configuration.serverMetadata().userinfo_endpoint) {
    // Providers put email and groups in the ID token, the userinfo answer or both.
    const info = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    claims = { ...info, ...claims };
  }
  return identityFrom(configuration.serverMetadata().issuer, claims, settings.groupsClaim);
}

const ZClaims = z.object({
  sub: z.string().min(1),
  email: z.string().max(254).email().optional().catch(undefined),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional().catch(undefined),
  preferred_username: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
});

/** Maps claims to an identity: email, a username (preferred_username, else name) and the groups. */
export function identityFrom(issuer: string, claims: Record<string, unknown>, groupsClaim: string): OidcIdentity {
  const parsed = ZClaims.parse(claims);
  const rawGroups = claims[groupsClaim];
  const groups = Array.isArray(rawGroups) ? rawGroups.filter((g): g is string => typeof g === "string") : typeof rawGroups === "string" ? [rawGroups] : [];
  return {
    issuer,
    subject: parsed.sub,
    email: parsed.email?.trim() || null,
    emailVerified: parsed.email_verified ?? null,
    username: parsed.preferred_username?.trim() || parsed.name?.trim() || null,
    groups,
  };
}

/**
 * Whether the provider vouches for the email: email_verified true, or (with OIDC_TRUST_EMAIL) no
 * email_verified claim at all.
 */
function emailTrusted(ctx: Context, identity: OidcIdentity): boolean {
  return identity.emailVerified === true || (identity.emailVerified === null && provider(ctx).settings.trustEmail === true);
}

function assertDomainAllowed(ctx: Context, identity: OidcIdentity): void {
  const domains = provider(ctx).settings.allowedDomains;
  if (domains.trim() === "") return;
  if (!identity.email || !emailTrusted(ctx, identity) || !emailAllowed(identity.email, { email_domain: domains, email_regex: "" })) {
    throw new AppError("sso_domain_not_allowed");
  }
}

/**
 * The account this identity signs in to: the one linked to its issuer and subject (never found by
 * email), or, on a first sign-in, a new one made under the event's registration rules. Members of
 * the staff group become staff. Returns the account once it may log in now.
 */
export async function signInWithIdentity(ctx: Context, identity: OidcIdentity): Promise<number> {
  assertDomainAllowed(ctx, identity);
  const grantsStaff = staffGroupMember(ctx, identity);
  const link = await ctx.db.identityLink.findUnique({
    where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
    select: { user: { select: { id: true, username: true, isStaff: true, isActive: true } } },
  });
  if (link) {
    const user = link.user;
    if (!user.isActive) throw new AppError("account_disabled");
    if (grantsStaff && !user.isStaff) {
      await ctx.db.$transaction(async (tx) => {
        await tx.user.update({ where: { id: user.id }, data: { isStaff: true }, select: { id: true } });
        await writeAudit(tx, user, "oidc_staff_granted", { issuer: identity.issuer, group: provider(ctx).settings.staffGroup });
      });
    }
    await assertMayLogIn(ctx, { isStaff: user.isStaff || grantsStaff, emailVerified: true });
    await ctx.db.user.update({ where: { id: user.id }, data: { lastIp: ctx.ip }, select: { id: true } });
    return user.id;
  }
  const created = await createAccount(ctx, identity, grantsStaff);
  await assertMayLogIn(ctx, { isStaff: created.isStaff, emailVerified: true });
  return created.id;
}

function staffGroupMember(ctx: Context, identity: OidcIdentity): boolean {
  const group = provider(ctx).settings.staffGroup.trim();
  return group !== "" && identity.groups.includes(group);
}

/** A first sign-in: a new account, when the event takes sign-ups by single sign-on now. */
async function createAccount(ctx: Context, identity: OidcIdentity, grantsStaff: boolean): Promise<{ id: number; isStaff: boolean }> {
  const config = await ctx.config.all();
  if (config.registration_provider !== "oidc") throw new AppError("sso_no_account");
  if (!config.enable_registration || !eventGates(config, ctx.now()).registrationOpen) throw new AppError("registration_not_open");
  // There is no invite field on the provider's pages.
  if (config.invite_required) throw new AppError("invite_required");
  const email = identity.email;
  if (!email || !emailTrusted(ctx, identity)) throw new AppError("sso_email_missing");
  if (!emailAllowed(email, config)) throw new AppError("invalid_email", { message: "Your email address may not register for this event." });

  const base = usernameFrom(identity, email);
  let created: { id: number; isStaff: boolean; username: string };
  try {
    created = await ctx.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`;
      if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw new AppError("sso_email_in_use");
      const username = await freeUsername(tx, base, identity.subject);
      const first = (await tx.user.count()) === 0;
      const user = await tx.user.create({
        data: {
          username,
          email,
          // No password: the account signs in through its provider (a password reset can add one).
          passwordHash: "",
          isStaff: first || grantsStaff,
          // The provider vouches for the address.
          emailVerified: true,
          signupIp: ctx.ip,
          lastIp: ctx.ip,
          identityLinks: { create: { issuer: identity.issuer, subject: identity.subject, email } },
        },
        select: { id: true, isStaff: true, username: true, identityLinks: { select: { id: true } } },
      });
      await writeAudit(tx, user, "oidc_account_created", { issuer: identity.issuer, identity: user.identityLinks[0]?.id });
      if (!config.enable_teams) await createOwnTeam(tx, user.id, username);
      if (grantsStaff) await writeAudit(tx, user, "oidc_staff_granted", { issuer: identity.issuer, group: provider(ctx).settings.staffGroup });
      return { id: user.id, isStaff: user.isStaff, username: user.username };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("email_or_username_in_use");
    throw error;
  }
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  return created;
}

/** The claimed username within our limits (no control characters, at most LIMITS.username). */
function usernameFrom(identity: OidcIdentity, email: string): string {
  const raw = identity.username ?? email.slice(0, email.lastIndexOf("@"));
  const clean = raw.replace(/\p{Cc}/gu, "").trim().slice(0, LIMITS.username);
  return clean || "player";
}

/** The name itself when free, else the name with a suffix from the subject's hash. */
async function freeUsername(tx: Pick<Context["db"], "user">, base: string, subject: string): Promise<string> {
  const digest = sha256(subject);
  const candidates = [base, ...[6, 10, 16].map((n) => `${base.slice(0, LIMITS.username - n - 1)}-${digest.slice(0, n)}`)];
  const taken = await tx.user.findMany({ where: { username: { in: candidates } }, select: { username: true } });
  const takenNames = new Set(taken.map((t) => t.username.toLowerCase()));
  const free = candidates.find((c) => !takenNames.has(c.toLowerCase()));
  if (!free) throw new AppError("email_or_username_in_use");
  return free;
}

const ZHandoff = z.object({ code: z.string().min(1).max(200) });

/**
 * Takes a handoff once: the flow row of that code and purpose, if still fresh, redeemed by the
 * browser that began the round trip (its cookie) and, for a link, by the account that began it.
 * A wrong browser or account spends nothing.
 */
async function takeHandoff(ctx: Context, raw: unknown, purpose: OidcPurpose) {
  const { code } = parseInput(ZHandoff, raw);
  await sweepExpired(ctx);
  const flow = await ctx.db.oidcFlow.findUnique({ where: { handoffHash: sha256(code) } });
  if (!flow || flow.purpose !== purpose || !ctx.oidcBrowserKey || flow.browserHash !== sha256(ctx.oidcBrowserKey)) throw new AppError("sso_failed");
  if (purpose === "link" && (flow.resultUserId === null || flow.resultUserId !== ctx.actor?.id)) throw new AppError("sso_failed");
  const { count } = await ctx.db.oidcFlow.deleteMany({ where: { id: flow.id } });
  if (count !== 1 || flow.expiresAt.getTime() < ctx.now() * 1000) throw new AppError("sso_failed");
  return flow;
}

/** The web app's /login?oidc=<code>: a session token for the account the callback signed in. */
export async function redeemOidcLogin(ctx: Context, raw: unknown): Promise<{ token: string }> {
  provider(ctx);
  const flow = await takeHandoff(ctx, raw, "login");
  if (flow.resultUserId === null) throw new AppError("sso_failed");
  // Disabled or deleted since the callback: no session.
  const user = await ctx.db.user.findUnique({ where: { id: flow.resultUserId }, select: { isActive: true } });
  if (!user?.isActive) throw new AppError("account_disabled");
  return { token: await issueToken(ctx.db, flow.resultUserId) };
}

/**
 * The web app's /settings?oidc=<code>: links the identity the callback checked to the signed-in
 * account that began the link and redeems the code (from its own sign-in, as the link was begun).
 * One link per provider per account; an identity links one account.
 */
export async function redeemOidcLink(ctx: AuthedContext, raw: unknown): Promise<IdentityView> {
  provider(ctx);
  await loginSession(ctx.db, ctx.actor);
  const flow = await takeHandoff(ctx, raw, "link");
  if (!flow.resultIssuer || !flow.resultSubject) throw new AppError("sso_failed");
  const issuer = flow.resultIssuer;
  const subject = flow.resultSubject;
  const existing = await ctx.db.identityLink.findUnique({ where: { issuer_subject: { issuer, subject } }, select: { userId: true } });
  if (existing && existing.userId !== ctx.actor.id) throw new AppError("sso_already_linked");
  if (await ctx.db.identityLink.findFirst({ where: { userId: ctx.actor.id, issuer, NOT: { subject } }, select: { id: true } })) {
    throw new AppError("sso_link_exists");
  }
  try {
    return await ctx.db.$transaction(async (tx) => {
      const link = await tx.identityLink.upsert({
        where: { issuer_subject: { issuer, subject } },
        create: { userId: ctx.actor.id, issuer, subject, email: flow.resultEmail ?? "" },
        update: {},
        select: IDENTITY_SELECT,
      });
      await writeAudit(tx, ctx.actor, "identity_linked", { issuer, identity: link.id });
      return toView(link);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("sso_already_linked");
    throw error;
  }
}

const IDENTITY_SELECT = { id: true, issuer: true, email: true, createdAt: true } as const;

export interface IdentityView {
  id: number;
  issuer: string;
  email: string;
  linked_at: string;
}

function toView(link: { id: number; issuer: string; email: string; createdAt: Date }): IdentityView {
  return { id: link.id, issuer: link.issuer, email: link.email, linked_at: link.createdAt.toISOString() };
}

/** The signed-in account's linked logins, and whether it has a password as well. */
export async function listIdentities(ctx: AuthedContext): Promise<{ identities: IdentityView[]; hasPassword: boolean }> {
  const user = await ctx.db.user.findUniqueOrThrow({
    where: { id: ctx.actor.id },
    select: { passwordHash: true, identityLinks: { select: IDENTITY_SELECT, orderBy: { id: "asc" } } },
  });
  return { identities: user.identityLinks.map(toView), hasPassword: user.passwordHash !== "" };
}

const ZUnlink = z.object({ id: z.number().int().positive() });

/** Removes one of the signed-in account's links, unless it is the account's only way to sign in. */
export async function unlinkIdentity(ctx: AuthedContext, raw: unknown): Promise<void> {
  const { id } = parseInput(ZUnlink, raw);
  if (ctx.actor.impersonatorId !== null) throw new AppError("permission_denied");
  await ctx.db.$transaction(async (tx) => {
    // Locks the account's row, so two unlinks at once cannot both pass the check below.
    await tx.$executeRaw`SELECT id FROM users WHERE id = ${ctx.actor.id} FOR UPDATE`;
    const user = await tx.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: { passwordHash: true, _count: { select: { identityLinks: true } } } });
    const link = await tx.identityLink.findFirst({ where: { id, userId: ctx.actor.id }, select: { id: true, issuer: true } });
    if (!link) throw new AppError("not_found");
    if (user.passwordHash === "" && user._count.identityLinks <= 1) throw new AppError("sso_last_login_method");
    await tx.identityLink.delete({ where: { id: link.id } });
    await writeAudit(tx, ctx.actor, "identity_unlinked", { issuer: link.issuer, identity: link.id });
  });
}
