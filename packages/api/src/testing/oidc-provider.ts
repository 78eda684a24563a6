import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

/**
 * A real OpenID Provider (the oidc-provider package) on a loopback port, for tests of single
 * sign-on. Its development sign-in page accepts any login name with any password; the login name
 * is the subject. Claims come from `accounts` when the test put the subject there, else they are
 * derived from the name: `<name>@<domain>`, verified, with the name as preferred_username.
 */
export interface TestAccountClaims {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
  groups?: string[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccountClaims>;
  /**
   * Drives the provider's sign-in page over HTTP as a browser would: opens the authorization URL,
   * signs in as `login` and returns the callback URL the provider sends the browser to.
   */
  signIn(authorizationUrl: string, login: string): Promise<string>;
  close(): Promise<void>;
}

export const TEST_OIDC_SCOPES = "openid email profile groups";

export async function startTestOidcProvider(options: { port?: number; redirectUris: string[]; domain?: string }): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccountClaims>();
  const domain = options.domain ?? "uni.example";
  const clientId = "flagship";
  const clientSecret = "flagship-test-secret-0123456789abcdef";
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username", "name"], groups: ["groups"] },
    scopes: ["openid", "email", "profile", "groups"],
    pkce: { required: () => true },
    cookies: { keys: ["flagship-test-cookie-key"] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@${domain}`, email_verified: true, preferred_username: sub, groups: [], ...accounts.get(sub) }),
    }),
    // The test client is first-party: its grant is given without a consent page.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const oidcCtx = ctx.oidc;
      if (!oidcCtx.session?.accountId || !oidcCtx.client) return undefined;
      const grantId = oidcCtx.session.grantIdFor(oidcCtx.client.clientId);
      if (grantId) {
        const found = await oidcCtx.provider.Grant.find(grantId);
        if (found) return found;
      }
      const grant = new oidcCtx.provider.Grant({ clientId: oidcCtx.client.clientId, accountId: oidcCtx.session.accountId });
      grant.addOIDCScope(TEST_OIDC_SCOPES);
      await grant.save();
      return grant;
    },
  });
  server.on("request", provider.callback());

  async function signIn(authorizationUrl: string, login: string): Promise<string> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const remember = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const at = pair!.indexOf("=");
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    };
    let url = authorizationUrl;
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 10; step += 1) {
      if (options.redirectUris.some((uri) => url.startsWith(uri))) return url;
      const response = await fetch(url, {
        method: body ? "POST" : "GET",
        redirect: "manual",
        headers: { cookie: cookieHeader(), ...(body && { "content-type": "application/x-www-form-urlencoded" }) },
        ...(body && { body }),
      });
      remember(response);
      body = undefined;
      const location = response.headers.get("location");
      if (location) {
        url = new URL(location, url).href;
        continue;
      }
      const page = await response.text();
      if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${page.slice(0, 300)}`);
      body = page.includes('name="login"') ? new URLSearchParams({ prompt: "login", login, password: "any" }) : new URLSearchParams({ prompt: "consent" });
      const action = /action="([^"]+)"/.exec(page)?.[1];
      if (!action) throw new Error("the provider's page has no form");
      url = new URL(action.replace(/&amp;/g, "&"), url).href;
    }
    throw new Error("the provider did not send the browser back");
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
