import { beginOidc, finishOidcCallback, type Services } from "@flagship/api";
import { AppError } from "@flagship/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { contextFor } from "./rest/adapter.ts";

/** The cookie that binds a single sign-on round trip to the browser that started it. */
const COOKIE = "flagship_oidc";
const COOKIE_PATH = "/auth/oidc";
const COOKIE_SECONDS = 600;

/**
 * Single sign-on's browser side (the web app links here; these are page navigations, not API
 * calls): `GET /auth/oidc/start` (`?purpose=link` from settings) sends the browser to the provider,
 * and the provider sends it back to `GET /auth/oidc/callback`, which answers with a redirect into
 * the web app carrying a one-time code (or `oidc_error=<code>`), never a token.
 */
export function registerOidcRoutes(app: FastifyInstance, services: Services, publicUrl: string): void {
  const secure = publicUrl.startsWith("https:");
  const cookie = (value: string, maxAge: number) =>
    `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  const redirect = (reply: FastifyReply, location: string) => reply.header("cache-control", "no-store").redirect(location, 303);

  app.get("/auth/oidc/start", async (request: FastifyRequest<{ Querystring: { purpose?: string } }>, reply) => {
    const purpose = request.query.purpose === "link" ? "link" : "login";
    const back = purpose === "link" ? "/settings" : "/login";
    try {
      const { url, browserKey } = await beginOidc(await contextFor(services, request), purpose);
      void reply.header("set-cookie", cookie(browserKey, COOKIE_SECONDS));
      return redirect(reply, url);
    } catch (error) {
      if (!(error instanceof AppError)) request.log.error({ err: error }, "single sign-on could not start");
      return redirect(reply, `${back}?oidc_error=${error instanceof AppError ? error.code : "sso_failed"}`);
    }
  });

  app.get("/auth/oidc/callback", async (request, reply) => {
    void reply.header("set-cookie", cookie("", 0));
    try {
      const location = await finishOidcCallback(await contextFor(services, request), {
        callbackUrl: new URL(request.url, publicUrl).href,
        browserKey: readCookie(request.headers.cookie, COOKIE),
      });
      return redirect(reply, location);
    } catch (error) {
      request.log.error({ err: error }, "single sign-on callback failed");
      return redirect(reply, "/login?oidc_error=sso_failed");
    }
  });
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || null;
  }
  return null;
}
