import { createOidcProvider } from "@flagship/api";
import { callerFor, uniqueName } from "@flagship/api/testing";
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

function useProvider() {
  server.world.services.oidc = createOidcProvider({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    scopes: TEST_OIDC_SCOPES,
    allowedDomains: "",
    staffGroup: "",
    groupsClaim: "groups",
    displayName: "Uni Login",
    redirectUri: `${PUBLIC_URL}/auth/oidc/callback`,
  });
}

const get = (url: string, cookie?: string) => server.app.inject({ method: "GET", url, ...(cookie && { headers: { cookie } }) });

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
    expect(String(response.headers["set-cookie"])).toMatch(/^flagship_oidc=[A-Za-z0-9_-]{43}; Path=\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    // Nothing secret is kept in the browser but the binding: the verifier stays on the server.
    const flow = await server.world.services.db.oidcFlow.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(location.href).not.toContain(flow.codeVerifier);
  });

  it("the callback hands the web app a one-time code, never a token, and only to the browser that started", async () => {
    useProvider();
    const start = await get("/auth/oidc/start");
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    const callback = new URL(await idp.signIn(String(start.headers.location), uniqueName("kim")));

    const elsewhere = await get(callback.pathname + callback.search);
    expect(elsewhere.headers.location).toBe("/login?oidc_error=sso_failed");

    const again = await get("/auth/oidc/start");
    const againCookie = String(again.headers["set-cookie"]).split(";")[0]!;
    const back = new URL(await idp.signIn(String(again.headers.location), uniqueName("kim")));
    const response = await get(back.pathname + back.search, againCookie);
    expect(response.statusCode).toBe(303);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(String(response.headers["set-cookie"])).toMatch(/^flagship_oidc=; Path=\/auth\/oidc; Max-Age=0;/);
    const landing = new URL(String(response.headers.location), PUBLIC_URL);
    expect(landing.pathname).toBe("/login");
    const code = landing.searchParams.get("oidc")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { token } = await callerFor(server.world, null).auth.oidcLogin({ code });
    const me = await server.api("GET", "/member/self/", { token });
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
});

describe("OIDC settings", () => {
  it("need the issuer and the client id together", () => {
    expect(() => loadEnv({ OIDC_ISSUER: "https://login.example.edu" })).toThrow(/OIDC_CLIENT_ID: is required with OIDC_ISSUER/);
    expect(() => loadEnv({ OIDC_CLIENT_ID: "ctf" })).toThrow(/OIDC_ISSUER: is required with OIDC_CLIENT_ID/);
    expect(() => loadEnv({ OIDC_ISSUER: "not a url", OIDC_CLIENT_ID: "ctf" })).toThrow(/OIDC_ISSUER/);
    expect(loadEnv({ OIDC_ISSUER: "https://login.example.edu", OIDC_CLIENT_ID: "ctf" })).toMatchObject({ OIDC_SCOPES: "openid email profile", OIDC_GROUPS_CLAIM: "groups" });
  });
});
