import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInnerContext } from "../context.ts";
import { createCaller } from "../root.ts";
import { callerFor, contextFor, createTestWorld, createUser, TEST_PASSWORD, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { startTestOidcProvider, TEST_OIDC_SCOPES, type TestOidcProvider } from "../testing/oidc-provider.ts";
import { beginOidc, createOidcProvider, finishOidcCallback, identityFrom, type OidcPurpose } from "./oidc.ts";
import { resolveActor } from "./resolve-actor.ts";

const REDIRECT_URI = "http://flagship.test/auth/oidc/callback";
let world: TestWorld;
let idp: TestOidcProvider;

beforeAll(async () => {
  world = await createTestWorld();
  idp = await startTestOidcProvider({ redirectUris: [REDIRECT_URI] });
  // The first account of an event becomes staff: that is not what these tests are about.
  await createUser(world, { isStaff: true });
});
afterAll(async () => {
  await idp.close();
  await world.close();
});

beforeEach(async () => {
  world.services.oidc = createOidcProvider({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    scopes: TEST_OIDC_SCOPES,
    allowedDomains: "",
    staffGroup: "ctf-staff",
    groupsClaim: "groups",
    displayName: "Uni Login",
    redirectUri: REDIRECT_URI,
  });
  await world.services.db.config.deleteMany({});
  world.services.config.invalidate();
  await setConfig("registration_provider", "oidc");
});

async function setConfig(key: string, value: unknown) {
  await world.services.db.config.upsert({ where: { key }, create: { key, value: value as object }, update: { value: value as object } });
  world.services.config.invalidate();
}

/** A tRPC caller acting as `user` (or anonymous) from a browser holding the cookie `browserKey`. */
function browserCaller(user: Pick<TestUser, "actor"> | null, browserKey: string | null) {
  return createCaller(createInnerContext(world.services, user?.actor ?? null, "127.0.0.1", browserKey));
}

/**
 * A whole round trip through the real provider: start (a link as `user`), sign in there as
 * `login`, callback. Returns where the callback sends the browser, and the browser's cookie.
 */
async function trip(login: string, purpose: OidcPurpose = "login", user: Pick<TestUser, "actor"> | null = null): Promise<{ back: URL; browserKey: string }> {
  const { url, browserKey } = await beginOidc(contextFor(world, user), purpose);
  const callbackUrl = await idp.signIn(url, login);
  return { back: new URL(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey }), "http://flagship.test"), browserKey };
}

async function roundTrip(login: string): Promise<URL> {
  return (await trip(login)).back;
}

/** Signs in by single sign-on and returns the session token the web app would get. */
async function signIn(login: string): Promise<string> {
  const { back, browserKey } = await trip(login);
  expect(back.searchParams.get("oidc_error")).toBeNull();
  expect(back.pathname).toBe("/login");
  const { token } = await browserCaller(null, browserKey).auth.oidcLogin({ code: back.searchParams.get("oidc")! });
  return token;
}

async function userOf(token: string) {
  const row = await world.services.db.authToken.findMany({ select: { keyHash: true, user: { select: { id: true, username: true, email: true, isStaff: true, emailVerified: true, passwordHash: true } } } });
  const { hashKey } = await import("./tokens.ts");
  return row.find((r) => r.keyHash === hashKey(token))!.user;
}

describe("single sign-on: first sign-in", () => {
  it("creates the account from the claims, linked to the issuer and subject, with no password", async () => {
    const login = uniqueName("ada");
    idp.accounts.set(login, { preferred_username: `Ada ${login}`, email: `${login}@uni.example` });
    const user = await userOf(await signIn(login));
    expect(user).toMatchObject({ username: `Ada ${login}`, email: `${login}@uni.example`, isStaff: false, emailVerified: true, passwordHash: "" });
    const links = await world.services.db.identityLink.findMany({ where: { userId: user.id } });
    expect(links).toMatchObject([{ issuer: idp.issuer, subject: login, email: `${login}@uni.example` }]);
    const audit = await world.services.db.auditLog.findMany({ where: { userId: user.id, action: "oidc_account_created" } });
    expect(audit).toMatchObject([{ username: `Ada ${login}`, extra: { issuer: idp.issuer, identity: links[0]!.id } }]);
  });

  it("takes an email only when the provider marks it verified, or (OIDC_TRUST_EMAIL) sends no claim", async () => {
    const silent = uniqueName("silent");
    idp.accounts.set(silent, { email_verified: undefined });
    expect((await roundTrip(silent)).search).toBe("?oidc_error=sso_email_missing");
    world.services.oidc!.settings.allowedDomains = "uni.example";
    expect((await roundTrip(silent)).search).toBe("?oidc_error=sso_domain_not_allowed");
    world.services.oidc!.settings.trustEmail = true;
    expect((await userOf(await signIn(silent))).email).toBe(`${silent}@uni.example`);
    // An explicit false is never trusted.
    const unverified = uniqueName("unverified");
    idp.accounts.set(unverified, { email_verified: false });
    expect((await roundTrip(unverified)).search).toBe("?oidc_error=sso_domain_not_allowed");
    world.services.oidc!.settings.allowedDomains = "";
    expect((await roundTrip(unverified)).search).toBe("?oidc_error=sso_email_missing");
    expect(await world.services.db.user.count({ where: { email: `${unverified}@uni.example` } })).toBe(0);
  });

  it("ignores an email claim longer than an address may be", () => {
    const long = `${"a".repeat(250)}@uni.example`;
    expect(identityFrom("https://idp.test", { sub: "s", email: long, email_verified: true }, "groups")).toMatchObject({ subject: "s", email: null });
  });

  it("refuses password sign-ups while registration_provider is oidc", async () => {
    const username = uniqueName("pw");
    await expect(callerFor(world, null).auth.register({ username, email: `${username}@uni.example`, password: TEST_PASSWORD })).rejects.toMatchObject({ cause: { code: "registration_not_open" } });
  });

  it("creates no account when sign-ups are not by single sign-on, or registration is closed", async () => {
    await setConfig("registration_provider", "basic_auth");
    expect((await roundTrip(uniqueName("late"))).search).toBe("?oidc_error=sso_no_account");
    await setConfig("registration_provider", "oidc");
    await setConfig("enable_registration", false);
    expect((await roundTrip(uniqueName("late"))).search).toBe("?oidc_error=registration_not_open");
    await setConfig("enable_registration", true);
    await setConfig("register_end_time", Math.floor(Date.now() / 1000) - 60);
    expect((await roundTrip(uniqueName("late"))).search).toBe("?oidc_error=registration_not_open");
    await setConfig("register_end_time", null);
    await setConfig("invite_required", true);
    expect((await roundTrip(uniqueName("late"))).search).toBe("?oidc_error=invite_required");
    await setConfig("invite_required", false);
    await setConfig("email_domain", "other.example");
    expect((await roundTrip(uniqueName("late"))).search).toBe("?oidc_error=invalid_email");
    const unverified = uniqueName("unverified");
    await setConfig("email_domain", "");
    idp.accounts.set(unverified, { email_verified: false });
    expect((await roundTrip(unverified)).search).toBe("?oidc_error=sso_email_missing");
    expect(await world.services.db.user.count({ where: { username: { startsWith: "late" } } })).toBe(0);
  });

  it("never links by email: a provider login with a taken email is refused", async () => {
    const existing = await createUser(world);
    const login = uniqueName("twin");
    idp.accounts.set(login, { email: existing.email });
    expect((await roundTrip(login)).search).toBe("?oidc_error=sso_email_in_use");
    expect(await world.services.db.identityLink.count({ where: { userId: existing.id } })).toBe(0);
  });

  it("gives a taken username a suffix", async () => {
    const taken = await createUser(world);
    const login = uniqueName("dup");
    idp.accounts.set(login, { preferred_username: taken.username });
    const user = await userOf(await signIn(login));
    expect(user.username).toMatch(new RegExp(`^${taken.username}-[0-9a-f]{6}$`));
  });
});

describe("single sign-on: later sign-ins", () => {
  it("find the account by the link even when the provider's email changed", async () => {
    const login = uniqueName("grace");
    const first = await userOf(await signIn(login));
    idp.accounts.set(login, { email: `${login}@new.example` });
    const again = await userOf(await signIn(login));
    expect(again.id).toBe(first.id);
    expect(again.email).toBe(first.email);
  });

  it("makes members of the staff group staff, audited", async () => {
    const login = uniqueName("boss");
    const player = await userOf(await signIn(login));
    expect(player.isStaff).toBe(false);
    idp.accounts.set(login, { groups: ["ctf-staff", "students"] });
    const staff = await userOf(await signIn(login));
    expect(staff).toMatchObject({ id: player.id, isStaff: true });
    const audit = await world.services.db.auditLog.findMany({ where: { userId: player.id, action: "oidc_staff_granted" } });
    expect(audit).toHaveLength(1);
  });

  it("refuses email domains outside OIDC_ALLOWED_DOMAINS", async () => {
    world.services.oidc!.settings.allowedDomains = "uni.example, @staff.uni.example";
    const outsider = uniqueName("outsider");
    idp.accounts.set(outsider, { email: `${outsider}@gmail.example` });
    expect((await roundTrip(outsider)).search).toBe("?oidc_error=sso_domain_not_allowed");
    const member = uniqueName("member");
    idp.accounts.set(member, { email: `${member}@staff.uni.example` });
    expect((await userOf(await signIn(member))).email).toBe(`${member}@staff.uni.example`);
  });

  it("refuses players while login is closed, as password login does", async () => {
    const login = uniqueName("closed");
    await signIn(login);
    await setConfig("enable_login", false);
    expect((await roundTrip(login)).search).toBe("?oidc_error=login_not_open");
  });
});

describe("single sign-on: the round trip's own checks", () => {
  it("refuses a callback from another browser (spending nothing), a replayed callback and a reused handoff code", async () => {
    const login = uniqueName("replay");
    const { url, browserKey } = await beginOidc(contextFor(world, null), "login");
    const callbackUrl = await idp.signIn(url, login);
    expect(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey: "someone else's" })).toBe("/login?oidc_error=sso_failed");
    expect(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey: null })).toBe("/login?oidc_error=sso_failed");
    // The right browser still completes it, once.
    const back = new URL(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey }), "http://flagship.test");
    expect(back.searchParams.get("oidc")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey })).toBe("/login?oidc_error=sso_failed");

    const code = back.searchParams.get("oidc")!;
    await browserCaller(null, browserKey).auth.oidcLogin({ code });
    await expect(browserCaller(null, browserKey).auth.oidcLogin({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
  });

  it("redeems a sign-in code only in the browser that began it (no login CSRF)", async () => {
    const attacker = uniqueName("mallory");
    await signIn(attacker);
    // The attacker's own round trip, whose code they send to a victim's browser.
    const { back, browserKey } = await trip(attacker);
    const code = back.searchParams.get("oidc")!;
    await expect(browserCaller(null, null).auth.oidcLogin({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    await expect(browserCaller(null, "the victim's cookie").auth.oidcLogin({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    // Those refusals spent nothing.
    expect((await userOf((await browserCaller(null, browserKey).auth.oidcLogin({ code })).token)).username).toBe(attacker);
  });

  it("refuses a code redeemed for the other purpose", async () => {
    const user = await createUser(world);
    const login = await trip(uniqueName("purpose"));
    await expect(browserCaller(user, login.browserKey).auth.oidcLink({ code: login.back.searchParams.get("oidc")! })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    const link = await trip(uniqueName("purpose"), "link", user);
    await expect(browserCaller(null, link.browserKey).auth.oidcLogin({ code: link.back.searchParams.get("oidc")! })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    // Both codes are still good for what they were made for.
    await expect(browserCaller(null, login.browserKey).auth.oidcLogin({ code: login.back.searchParams.get("oidc")! })).resolves.toMatchObject({ token: expect.any(String) });
    await expect(browserCaller(user, link.browserKey).auth.oidcLink({ code: link.back.searchParams.get("oidc")! })).resolves.toMatchObject({ issuer: idp.issuer });
  });

  it("refuses an expired round trip at the callback and an expired handoff code", async () => {
    const later = (seconds: number) => ({ ...contextFor(world, null), now: () => world.services.now() + seconds });
    const { url, browserKey } = await beginOidc(contextFor(world, null), "login");
    const callbackUrl = await idp.signIn(url, uniqueName("slow"));
    expect(await finishOidcCallback(later(601), { callbackUrl, browserKey })).toBe("/login?oidc_error=sso_failed");

    const login = uniqueName("slow");
    await signIn(login);
    const { back, browserKey: key } = await trip(login);
    const code = back.searchParams.get("oidc")!;
    await expect(createCaller({ ...later(121), oidcBrowserKey: key }).auth.oidcLogin({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    // Expired rows are swept as codes are redeemed.
    expect(await world.services.db.oidcFlow.count({ where: { expiresAt: { lt: new Date((world.services.now() + 121) * 1000) } } })).toBe(0);
  });

  it("says single sign-on is off when it is not configured", async () => {
    world.services.oidc = undefined;
    expect(await callerFor(world, null).auth.oidcInfo()).toEqual({ enabled: false, name: "" });
    await expect(beginOidc(contextFor(world, null), "login")).rejects.toMatchObject({ code: "sso_not_configured" });
  });
});

describe("single sign-on: linking in settings", () => {
  async function link(user: TestUser, login: string) {
    const { back, browserKey } = await trip(login, "link", user);
    expect(back.pathname).toBe("/settings");
    return browserCaller(user, browserKey).auth.oidcLink({ code: back.searchParams.get("oidc")! });
  }

  it("links only for the account that began it, in its browser (no account takeover)", async () => {
    const attacker = await createUser(world);
    const victim = await createUser(world);
    const login = uniqueName("attacker");
    const { back, browserKey } = await trip(login, "link", attacker);
    const code = back.searchParams.get("oidc")!;
    // The victim follows the attacker's link: neither their own browser nor the attacker's cookie helps.
    await expect(browserCaller(victim, null).auth.oidcLink({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    await expect(browserCaller(victim, "the victim's cookie").auth.oidcLink({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    await expect(browserCaller(victim, browserKey).auth.oidcLink({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    // Its own account without the cookie is refused too.
    await expect(browserCaller(attacker, null).auth.oidcLink({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
    expect(await world.services.db.identityLink.count({ where: { userId: victim.id } })).toBe(0);
    await expect(browserCaller(attacker, browserKey).auth.oidcLink({ code })).resolves.toMatchObject({ issuer: idp.issuer });
  });

  it("is begun only by a signed-in account, not while impersonating, and so is unlinking", async () => {
    await expect(beginOidc(contextFor(world, null), "link")).rejects.toMatchObject({ code: "not_authenticated" });
    const user = await createUser(world);
    const impersonated = { actor: { ...user.actor, impersonatorId: 1 } };
    await expect(beginOidc(contextFor(world, impersonated), "link")).rejects.toMatchObject({ code: "permission_denied" });
    // A code the account itself began, redeemed under impersonation, is refused as well.
    const { back, browserKey } = await trip(uniqueName("imp"), "link", user);
    const code = back.searchParams.get("oidc")!;
    await expect(browserCaller(impersonated, browserKey).auth.oidcLink({ code })).rejects.toMatchObject({ cause: { code: "permission_denied" } });
    const view = await browserCaller(user, browserKey).auth.oidcLink({ code });
    await expect(callerFor(world, impersonated).auth.unlinkIdentity({ id: view.id })).rejects.toMatchObject({ cause: { code: "permission_denied" } });
    expect(await world.services.db.identityLink.count({ where: { userId: user.id } })).toBe(1);
  });

  it("is neither begun nor redeemed with a personal access token, which must not add a way to sign in", async () => {
    const lead = await createUser(world, { isStaff: true });
    const { token: key } = await callerFor(world, lead).auth.createPersonalToken({ name: "script", expires_in_days: 30 });
    const viaKey = { actor: (await resolveActor(world.services, key))! };
    await expect(beginOidc(contextFor(world, viaKey), "link")).rejects.toMatchObject({ code: "permission_denied" });
    const { back, browserKey } = await trip(uniqueName("pat"), "link", lead);
    const code = back.searchParams.get("oidc")!;
    await expect(browserCaller(viaKey, browserKey).auth.oidcLink({ code })).rejects.toMatchObject({ cause: { code: "permission_denied" } });
    expect(await world.services.db.identityLink.count({ where: { userId: lead.id } })).toBe(0);
    // The account's own sign-in still links it with the same code.
    await expect(browserCaller(lead, browserKey).auth.oidcLink({ code })).resolves.toMatchObject({ issuer: idp.issuer });
  });

  it("links a password account, which then signs in by the link; unlinking is audited", async () => {
    await setConfig("registration_provider", "basic_auth");
    const user = await createUser(world);
    const login = uniqueName("linker");
    const view = await link(user, login);
    expect(view).toMatchObject({ issuer: idp.issuer, email: `${login}@uni.example` });
    expect((await userOf(await signIn(login))).id).toBe(user.id);
    expect(await callerFor(world, user).auth.identities()).toMatchObject({ hasPassword: true, identities: [{ id: view.id }] });

    await callerFor(world, user).auth.unlinkIdentity({ id: view.id });
    expect((await callerFor(world, user).auth.identities()).identities).toEqual([]);
    expect((await roundTrip(login)).search).toBe("?oidc_error=sso_no_account");
    const actions = (await world.services.db.auditLog.findMany({ where: { userId: user.id } })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["identity_linked", "identity_unlinked"]));
  });

  it("refuses an identity linked to another account, and a second login at the same provider", async () => {
    const owner = await createUser(world);
    const other = await createUser(world);
    const login = uniqueName("shared");
    await link(owner, login);
    await expect(link(other, login)).rejects.toMatchObject({ cause: { code: "sso_already_linked" } });
    await expect(link(owner, uniqueName("second"))).rejects.toMatchObject({ cause: { code: "sso_link_exists" } });
  });

  it("refuses to unlink the only way into an account without a password, and others' links", async () => {
    const login = uniqueName("only");
    const token = await signIn(login);
    const user = await userOf(token);
    const actor = { id: user.id, username: user.username, isStaff: false, teamId: null, tokenId: 0, impersonatorId: null, has2fa: false };
    const { identities, hasPassword } = await callerFor(world, { actor }).auth.identities();
    expect(hasPassword).toBe(false);
    await expect(callerFor(world, { actor }).auth.unlinkIdentity({ id: identities[0]!.id })).rejects.toMatchObject({ cause: { code: "sso_last_login_method" } });
    const stranger = await createUser(world);
    await expect(callerFor(world, stranger).auth.unlinkIdentity({ id: identities[0]!.id })).rejects.toMatchObject({ cause: { code: "not_found" } });
    expect(await world.services.db.identityLink.count({ where: { userId: user.id } })).toBe(1);
  });
});

describe("login providers in the configuration", () => {
  it("accepts only registered provider names", async () => {
    const staff = await createUser(world, { isStaff: true });
    const caller = callerFor(world, staff);
    await expect(caller.config.set({ key: "login_provider", value: "oidc" })).resolves.toBe("oidc");
    await expect(caller.config.set({ key: "registration_provider", value: "basic" })).resolves.toBe("basic_auth");
    await expect(caller.config.set({ key: "login_provider", value: "saml" })).rejects.toMatchObject({ cause: { code: "invalid", details: { value: [expect.stringContaining("basic_auth, oidc")] } } });
    expect(await world.services.config.get("login_provider")).toBe("oidc");
  });
});
