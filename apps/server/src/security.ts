import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import helmet from "helmet";

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

type HelmetOptions = NonNullable<Parameters<typeof helmet>[0]>;

/**
 * The headers a helmet configuration sets, computed once: helmet's middleware is run against a
 * recorder instead of a response. Building the middleware per request (as the Fastify plugin did,
 * parsing the CSP directives again each time) was a visible share of a cheap read's cost.
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every response, by helmet: the CSP above, frame-ancestors 'none' (and
 * X-Frame-Options DENY for older browsers), nosniff, Referrer-Policy strict-origin-when-cross-origin
 * (no-referrer on the reset and verify pages), and HSTS when the request came over TLS (directly,
 * or through a trusted proxy's X-Forwarded-Proto: see TRUST_PROXY). The four possible sets are
 * computed at start; a request only picks one.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { development: boolean }): Promise<void> {
  const directives: Record<string, readonly string[]> = { ...CSP_DIRECTIVES };
  if (options.development) directives.reportUri = [CSP_REPORT_PATH];
  const base: HelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives: directives as Record<string, string[]> },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    // Sent only over TLS, below: over plain HTTP it means nothing, and would pin a local test host.
    strictTransportSecurity: false,
    // Images and files are served to other origins' pages too (CORS clients, embeds).
    crossOriginResourcePolicy: { policy: "cross-origin" },
  };
  const noReferrer = { referrerPolicy: { policy: "no-referrer" } } as const;
  const hsts = { strictTransportSecurity: HSTS };
  const sets = {
    plain: headersOf(base),
    secret: headersOf({ ...base, ...noReferrer }),
    tls: headersOf({ ...base, ...hsts }),
    secretTls: headersOf({ ...base, ...noReferrer, ...hsts }),
  };
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const tls = request.protocol === "https";
    const url = request.url;
    const secretPage = (url.startsWith("/password_reset") || url.startsWith("/verify")) && SECRET_PAGES.has(pathOf(url));
    void reply.headers(secretPage ? (tls ? sets.secretTls : sets.secret) : tls ? sets.tls : sets.plain);
    done();
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
