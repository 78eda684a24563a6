import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callerFor, contextFor, createTestWorld, createUser, TEST_PASSWORD, type TestWorld, uniqueName } from "../testing/index.ts";
import { startTestOidcProvider, TEST_OIDC_SCOPES, type TestOidcProvider } from "../testing/oidc-provider.ts";
import { beginOidc, createOidcProvider, finishOidcCallback, type OidcPurpose } from "./oidc.ts";

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

/** A whole round trip through the real provider: start, sign in there as `login`, callback. */
async function roundTrip(login: string, purpose: OidcPurpose = "login"): Promise<URL> {
  const { url, browserKey } = await beginOidc(contextFor(world, null), purpose);
  const callbackUrl = await idp.signIn(url, login);
  return new URL(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey }), "http://flagship.test");
}

/** Signs in by single sign-on and returns the session token the web app would get. */
async function signIn(login: string): Promise<string> {
  const back = await roundTrip(login);
  expect(back.searchParams.get("oidc_error")).toBeNull();
  expect(back.pathname).toBe("/login");
  const { token } = await callerFor(world, null).auth.oidcLogin({ code: back.searchParams.get("oidc")! });
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
  it("refuses a callback from another browser, a replayed callback and a reused handoff code", async () => {
    const login = uniqueName("replay");
    const { url, browserKey } = await beginOidc(contextFor(world, null), "login");
    const callbackUrl = await idp.signIn(url, login);
    expect(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey: "someone else's" })).toBe("/login?oidc_error=sso_failed");
    // The flow was spent by that attempt: the right browser cannot use it either.
    expect(await finishOidcCallback(contextFor(world, null), { callbackUrl, browserKey })).toBe("/login?oidc_error=sso_failed");

    const back = await roundTrip(login);
    const code = back.searchParams.get("oidc")!;
    await callerFor(world, null).auth.oidcLogin({ code });
    await expect(callerFor(world, null).auth.oidcLogin({ code })).rejects.toMatchObject({ cause: { code: "sso_failed" } });
  });

  it("says single sign-on is off when it is not configured", async () => {
    world.services.oidc = undefined;
    expect(await callerFor(world, null).auth.oidcInfo()).toEqual({ enabled: false, name: "" });
    await expect(beginOidc(contextFor(world, null), "login")).rejects.toMatchObject({ code: "sso_not_configured" });
  });
});

describe("single sign-on: linking in settings", () => {
  async function link(user: Awaited<ReturnType<typeof createUser>>, login: string) {
    const back = await roundTrip(login, "link");
    expect(back.pathname).toBe("/settings");
    return callerFor(world, user).auth.oidcLink({ code: back.searchParams.get("oidc")! });
  }

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
