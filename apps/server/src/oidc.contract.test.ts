import { createOidcProvider } from "@flagship/api";
import { createUser, uniqueName } from "@flagship/api/testing";
import { startTestOidcProvider, TEST_OIDC_SCOPES, type TestOidcProvider } from "@flagship/api/testing/oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "./env.ts";
import { createTestServer, type TestServer } from "./testing.ts";

const PUBLIC_URL = "https://ctf.example.test";
let server: TestServer;
let idp: TestOidcProvider;

beforeAll(async () => {
  [server, idp] = await Promise.all([
    createTestServer({ PUBLIC_URL }),
    startTestOidcProvider({ redirectUris: [`${PUBLIC_URL}/auth/oidc/callback`] }),
  ]);
  await server.world.services.db.config.create({ data: { key: "registration_provider", value: "oidc" } });
});
afterAll(async () => Promise.all([server.close(), idp.close()]));

function useProvider(provider: Pick<TestOidcProvider, "issuer" | "clientId" | "clientSecret"> = idp) {
  server.world.services.oidc = createOidcProvider({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    scopes: TEST_OIDC_SCOPES,
    allowedDomains: "",
    staffGroup: "",
    groupsClaim: "groups",
    displayName: "Uni Login",
    redirectUri: `${PUBLIC_URL}/auth/oidc/callback`,
  });
}

const get = (url: string, cookie?: string) => server.app.inject({ method: "GET", url, ...(cookie && { headers: { cookie } }) });
const cookieOf = (response: { headers: Record<string, unknown> }) => String(response.headers["set-cookie"]).split(";")[0]!;

/** A tRPC mutation over HTTP, as the web app sends it (the browser adds its cookies). */
async function mutate(path: string, input: unknown, headers: { cookie?: string; token?: string } = {}) {
  const response = await server.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    headers: { "content-type": "application/json", ...(headers.cookie && { cookie: headers.cookie }), ...(headers.token && { authorization: `Token ${headers.token}` }) },
    payload: { json: input },
  });
  const body = response.json<{ result?: { data: { json: Record<string, unknown> } }; error?: { json: { data: { code: string }; message: string } } }>();
  return { status: response.statusCode, data: body.result?.data.json, error: body.error?.json };
}

/** POST /auth/oidc/start: the web app's call that begins a link for the signed-in account. */
const startLink = (token?: string) => server.app.inject({ method: "POST", url: "/auth/oidc/start", ...(token && { headers: { authorization: `Token ${token}` } }) });

describe("GET /auth/oidc/start and /auth/oidc/callback", () => {
  it("send the browser back to the login page when single sign-on is not set up", async () => {
    server.world.services.oidc = undefined;
    const response = await get("/auth/oidc/start");
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/login?oidc_error=sso_not_configured");
    expect(response.headers["set-cookie"]).toBeUndefined();
  });

  it("start sends the browser to the provider with PKCE (S256), state and nonce, bound by an HttpOnly cookie", async () => {
    useProvider();
    const response = await get("/auth/oidc/start");
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(idp.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: idp.clientId,
      response_type: "code",
      redirect_uri: `${PUBLIC_URL}/auth/oidc/callback`,
      code_challenge_method: "S256",
      scope: TEST_OIDC_SCOPES,
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    // Its path is the whole site: the handoff code is redeemed over /trpc, with this cookie only.
    expect(String(response.headers["set-cookie"])).toMatch(/^flagship_oidc=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    // Nothing secret is kept in the browser but the binding: the verifier stays on the server.
    const flow = await server.world.services.db.oidcFlow.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(location.href).not.toContain(flow.codeVerifier);
  });

  it("the callback hands the web app a one-time code, never a token, and only to the browser that started", async () => {
    useProvider();
    const start = await get("/auth/oidc/start");
    const cookie = cookieOf(start);
    const callback = new URL(await idp.signIn(String(start.headers.location), uniqueName("kim")));

    const elsewhere = await get(callback.pathname + callback.search);
    expect(elsewhere.headers.location).toBe("/login?oidc_error=sso_failed");

    const again = await get("/auth/oidc/start");
    const againCookie = cookieOf(again);
    const back = new URL(await idp.signIn(String(again.headers.location), uniqueName("kim")));
    const response = await get(back.pathname + back.search, againCookie);
    expect(response.statusCode).toBe(303);
    expect(response.headers["cache-control"]).toBe("no-store");
    const landing = new URL(String(response.headers.location), PUBLIC_URL);
    expect(landing.pathname).toBe("/login");
    const code = landing.searchParams.get("oidc")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Redeemed over tRPC only with that browser's cookie: a code sent to another browser is worthless.
    expect((await mutate("auth.oidcLogin", { code })).error?.data.code).toBe("UNAUTHORIZED");
    expect((await mutate("auth.oidcLogin", { code }, { cookie })).error?.message).toBe("Single sign-on did not complete. Please try again.");
    const redeemed = await mutate("auth.oidcLogin", { code }, { cookie: againCookie });
    expect(redeemed.status).toBe(200);
    const me = await server.api("GET", "/member/self/", { token: String(redeemed.data!.token) });
    expect(me.status).toBe(200);
    // A callback without the cookie did not spend the first round trip; its own browser completes
    // it, once.
    expect(String((await get(callback.pathname + callback.search, cookie)).headers.location)).toMatch(/^\/login\?oidc=/);
    expect((await get(callback.pathname + callback.search, cookie)).headers.location).toBe("/login?oidc_error=sso_failed");
  });

  it("a provider's error reply lands on the login page with sso_failed", async () => {
    useProvider();
    const start = await get("/auth/oidc/start");
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    const state = new URL(String(start.headers.location)).searchParams.get("state")!;
    const response = await get(`/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`, cookie);
    expect(response.headers.location).toBe("/login?oidc_error=sso_failed");
  });

  it("a link is begun by the signed-in account's POST, and only that account redeems it, in that browser", async () => {
    useProvider();
    const anonymous = await startLink();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: "not_authenticated" });
    expect(anonymous.headers["set-cookie"]).toBeUndefined();

    const [owner, victim] = [await createUser(server.world), await createUser(server.world)];
    const start = await startLink(owner.token);
    expect(start.statusCode).toBe(200);
    expect(start.headers["cache-control"]).toBe("no-store");
    const cookie = cookieOf(start);
    const back = new URL(await idp.signIn(start.json<{ url: string }>().url, uniqueName("linker")));
    const landing = new URL(String((await get(back.pathname + back.search, cookie)).headers.location), PUBLIC_URL);
    expect(landing.pathname).toBe("/settings");
    const code = landing.searchParams.get("oidc")!;
    expect((await mutate("auth.oidcLink", { code }, { token: victim.token })).error?.message).toBe("Single sign-on did not complete. Please try again.");
    expect((await mutate("auth.oidcLink", { code }, { token: victim.token, cookie })).error?.message).toBe("Single sign-on did not complete. Please try again.");
    expect((await mutate("auth.oidcLink", { code }, { token: owner.token })).error?.message).toBe("Single sign-on did not complete. Please try again.");
    const linked = await mutate("auth.oidcLink", { code }, { token: owner.token, cookie });
    expect(linked).toMatchObject({ status: 200, data: { issuer: idp.issuer } });
  });

  it("an unreachable provider at the start is a clean refusal, never a 500", async () => {
    useProvider({ issuer: "http://127.0.0.1:9", clientId: "flagship", clientSecret: "x" });
    const response = await get("/auth/oidc/start");
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/login?oidc_error=sso_failed");
    const user = await createUser(server.world);
    const link = await startLink(user.token);
    expect(link.statusCode).toBe(401);
    expect(link.json()).toEqual({ error: "sso_failed" });
  });

  it("a provider gone by the callback sends the browser back where it began with sso_failed, never a 500", async () => {
    const gone = await startTestOidcProvider({ redirectUris: [`${PUBLIC_URL}/auth/oidc/callback`] });
    try {
      useProvider(gone);
      const login = await get("/auth/oidc/start");
      const loginBack = new URL(await gone.signIn(String(login.headers.location), uniqueName("gone")));
      const user = await createUser(server.world);
      const link = await startLink(user.token);
      const linkBack = new URL(await gone.signIn(link.json<{ url: string }>().url, uniqueName("gone")));
      await gone.close();
      const loginResponse = await get(loginBack.pathname + loginBack.search, cookieOf(login));
      expect(loginResponse.statusCode).toBe(303);
      expect(loginResponse.headers.location).toBe("/login?oidc_error=sso_failed");
      const linkResponse = await get(linkBack.pathname + linkBack.search, cookieOf(link));
      expect(linkResponse.statusCode).toBe(303);
      expect(linkResponse.headers.location).toBe("/settings?oidc_error=sso_failed");
    } finally {
      await gone.close().catch(() => undefined);
    }
  });
});

describe("OIDC settings", () => {
  it("need the issuer and the client id together", () => {
    expect(() => loadEnv({ OIDC_ISSUER: "https://login.example.edu" })).toThrow(/OIDC_CLIENT_ID: is required with OIDC_ISSUER/);
    expect(() => loadEnv({ OIDC_CLIENT_ID: "ctf" })).toThrow(/OIDC_ISSUER: is required with OIDC_CLIENT_ID/);
    expect(() => loadEnv({ OIDC_ISSUER: "not a url", OIDC_CLIENT_ID: "ctf" })).toThrow(/OIDC_ISSUER/);
    expect(loadEnv({ OIDC_ISSUER: "https://login.example.edu", OIDC_CLIENT_ID: "ctf" })).toMatchObject({ OIDC_SCOPES: "openid email profile", OIDC_GROUPS_CLAIM: "groups" });
  });
});
