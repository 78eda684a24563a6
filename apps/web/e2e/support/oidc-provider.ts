import { startTestOidcProvider } from "@flagship/api/testing/oidc-provider";

/**
 * A real OpenID Provider (oidc-provider) for the whole run, on the port the e2e server's
 * OIDC_ISSUER names; its sign-in page accepts any login name (the subject) with any password.
 */
export default async function startOidcProvider(): Promise<() => Promise<void>> {
  const provider = await startTestOidcProvider({
    port: Number(process.env.E2E_OIDC_PORT),
    redirectUris: [`http://127.0.0.1:${process.env.E2E_PORT ?? 8181}/auth/oidc/callback`],
  });
  return () => provider.close();
}
