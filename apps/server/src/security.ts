import helmet from "@fastify/helmet";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * The Content-Security-Policy of every response. Scripts come only from our own origin (the web
 * app has no inline script; its runtime settings travel in a JSON data block), nothing may frame
 * us, and plugins are off. Styles allow 'unsafe-inline' because Mantine and CodeMirror write style
 * attributes and style elements at run time. Images may come from https anywhere: challenge
 * descriptions embed them and map flags use staff-chosen tile servers.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:", "https:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const;

/** Where development servers have browsers report CSP violations (they land in the log). */
export const CSP_REPORT_PATH = "/csp-report";

/** Web app pages that carry a secret in their URL (the reset and verification links of mails). */
const SECRET_PAGES = new Set(["/password_reset", "/verify"]);

/** HSTS for responses served over TLS: a year, subdomains included. */
const HSTS = { maxAge: 31_536_000, includeSubDomains: true } as const;

/**
 * Security headers on every response, by @fastify/helmet: the CSP above, frame-ancestors 'none'
 * (and X-Frame-Options DENY for older browsers), nosniff, Referrer-Policy
 * strict-origin-when-cross-origin (no-referrer on the reset and verify pages), and HSTS when the
 * request came over TLS (directly, or through a trusted proxy's X-Forwarded-Proto: see TRUST_PROXY).
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { development: boolean }): Promise<void> {
  const directives: Record<string, readonly string[]> = { ...CSP_DIRECTIVES };
  if (options.development) directives.reportUri = [CSP_REPORT_PATH];
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: directives as Record<string, string[]> },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    // Sent only over TLS, below: over plain HTTP it means nothing, and would pin a local test host.
    strictTransportSecurity: false,
    // Images and files are served to other origins' pages too (CORS clients, embeds).
    crossOriginResourcePolicy: { policy: "cross-origin" },
  });
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const secretPage = SECRET_PAGES.has(pathOf(request.url));
    const tls = request.protocol === "https";
    if (!secretPage && !tls) return;
    reply.helmet({
      ...(secretPage && { referrerPolicy: { policy: "no-referrer" } }),
      ...(tls && { strictTransportSecurity: HSTS }),
    });
  });

  if (options.development) {
    app.addContentTypeParser(["application/csp-report", "application/reports+json"], { parseAs: "string" }, (_request, body, done) => {
      try {
        done(null, JSON.parse(typeof body === "string" ? body : body.toString("utf8")));
      } catch {
        done(null, body);
      }
    });
    app.post(CSP_REPORT_PATH, async (request, reply) => {
      request.log.warn({ report: request.body }, "Content-Security-Policy violation");
      return reply.code(204).send();
    });
  }
}

function pathOf(url: string): string {
  return (url.split("?")[0] ?? "").replace(/\/+$/, "") || "/";
}
