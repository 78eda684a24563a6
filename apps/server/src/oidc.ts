import { beginOidc, finishOidcCallback, type Services } from "@flagship/api";
import { AppError, ERRORS } from "@flagship/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OIDC_COOKIE, readCookie } from "./oidc-cookie.ts";
import { contextFor } from "./rest/adapter.ts";

const COOKIE_SECONDS = 600;

/**
 * Single sign-on's browser side: `GET /auth/oidc/start` (a page navigation from the login page)
 * sends the browser to the provider; a signed-in account links a login with
 * `POST /auth/oidc/start` (the web app's call, with its session token), which records the account
 * on the round trip and answers the provider's URL. The provider sends the browser back to
 * `GET /auth/oidc/callback`, which answers with a redirect into the web app carrying a one-time
 * code (or `oidc_error=<code>`), never a token; the web app redeems the code over tRPC, where it
 * counts only with the browser's cookie (and, for a link, only for the account that began it).
 */
export function registerOidcRoutes(app: FastifyInstance, services: Services, publicUrl: string): void {
  const secure = publicUrl.startsWith("https:");
  const cookie = (value: string) => `${OIDC_COOKIE}=${value}; Path=/; Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  const redirect = (reply: FastifyReply, location: string) => reply.header("cache-control", "no-store").redirect(location, 303);
  const codeOf = (request: FastifyRequest, error: unknown, what: string) => {
    if (error instanceof AppError) return error.code;
    request.log.error({ err: error }, what);
    return "sso_failed" as const;
  };

  app.get("/auth/oidc/start", async (request, reply) => {
    try {
      const { url, browserKey } = await beginOidc(await contextFor(services, request), "login");
      void reply.header("set-cookie", cookie(browserKey));
      return redirect(reply, url);
    } catch (error) {
      return redirect(reply, `/login?oidc_error=${codeOf(request, error, "single sign-on could not start")}`);
    }
  });

  app.post("/auth/oidc/start", async (request, reply) => {
    void reply.header("cache-control", "no-store");
    try {
      const { url, browserKey } = await beginOidc(await contextFor(services, request), "link");
      void reply.header("set-cookie", cookie(browserKey));
      return reply.send({ url });
    } catch (error) {
      const code = codeOf(request, error, "single sign-on could not start");
      return reply.code(ERRORS[code].status).send({ error: code });
    }
  });

  app.get("/auth/oidc/callback", async (request, reply) => {
    try {
      const location = await finishOidcCallback(await contextFor(services, request), {
        callbackUrl: new URL(request.url, publicUrl).href,
        browserKey: readCookie(request.headers.cookie, OIDC_COOKIE),
      });
      return redirect(reply, location);
    } catch (error) {
      request.log.error({ err: error }, "single sign-on callback failed");
      return redirect(reply, "/login?oidc_error=sso_failed");
    }
  });
}
