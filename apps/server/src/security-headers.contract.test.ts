import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "./testing.ts";

const CSP =
  "default-src 'self';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';img-src 'self' data: blob: https:;" +
  "font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";

let server: TestServer;
let proxied: TestServer;
let development: TestServer;
beforeAll(async () => {
  [server, proxied, development] = await Promise.all([
    createTestServer({ NODE_ENV: "production" }),
    // Behind one proxy, which says whether the client came over TLS.
    createTestServer({ NODE_ENV: "production", TRUST_PROXY: "1" }),
    createTestServer({ NODE_ENV: "development" }),
  ]);
});
afterAll(async () => Promise.all([server.close(), proxied.close(), development.close()]));

const get = (s: TestServer, url: string, headers: Record<string, string> = {}) => s.app.inject({ method: "GET", url, headers });

// The web app's root, its history fallback, REST (a hit, a miss, an error) and tRPC.
const PATHS = ["/", "/challenges/some/deep/page?x=1", "/api/v2/stats/version/", "/api/v2/no/such/path/", "/api/v2/auth/login/", "/trpc/stats.version", "/trpc/no.such"];

describe("security headers", () => {
  it("are on every kind of response: strict CSP, no framing, nosniff, a cross-origin referrer policy", async () => {
    for (const path of PATHS) {
      const res = await get(server, path);
      expect({
        path,
        csp: res.headers["content-security-policy"],
        frameOptions: res.headers["x-frame-options"],
        nosniff: res.headers["x-content-type-options"],
        referrer: res.headers["referrer-policy"],
        hsts: res.headers["strict-transport-security"],
      }).toEqual({ path, csp: CSP, frameOptions: "DENY", nosniff: "nosniff", referrer: "strict-origin-when-cross-origin", hsts: undefined });
    }
  });

  it("send no referrer from the pages whose URL carries a secret (password reset, email verification)", async () => {
    for (const path of ["/password_reset?id=7&secret=abc", "/password_reset/", "/verify?id=7&secret=abc"]) {
      const res = await get(server, path);
      expect({ path, status: res.statusCode, referrer: res.headers["referrer-policy"], csp: res.headers["content-security-policy"] }).toEqual({
        path,
        status: 200,
        referrer: "no-referrer",
        csp: CSP,
      });
    }
  });

  it("add HSTS when served over TLS behind a trusted proxy, and only then", async () => {
    for (const path of PATHS) {
      const tls = await get(proxied, path, { "x-forwarded-proto": "https" });
      expect({ path, hsts: tls.headers["strict-transport-security"] }).toEqual({ path, hsts: "max-age=31536000; includeSubDomains" });
      const plain = await get(proxied, path, { "x-forwarded-proto": "http" });
      expect({ path, hsts: plain.headers["strict-transport-security"] }).toEqual({ path, hsts: undefined });
    }
    // Without TRUST_PROXY a client cannot claim TLS.
    const spoofed = await get(server, "/", { "x-forwarded-proto": "https" });
    expect(spoofed.headers["strict-transport-security"]).toBeUndefined();
  });

  it("keep the page free of inline scripts: runtime settings travel as a JSON data block", async () => {
    const page = (await get(server, "/")).body;
    const scripts = [...page.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(scripts.filter((attributes) => !/\bsrc=/.test(attributes) && !/type="application\/json"/.test(attributes))).toEqual([]);
  });

  it("are what the nginx proxy adds to the responses it makes itself", () => {
    const conf = readFileSync(new URL("../../../infra/nginx.conf", import.meta.url), "utf8");
    expect(conf).toContain(`"" "${CSP}";`);
    expect(conf).toContain(`"" "nosniff";`);
    expect(conf).toContain(`"" "DENY";`);
    expect(conf).toContain(`"" "strict-origin-when-cross-origin";`);
    expect(conf).toContain(`"https:" "max-age=31536000; includeSubDomains";`);
  });

  it("in development, have browsers report violations, which the server logs", async () => {
    const res = await get(development, "/");
    expect(res.headers["content-security-policy"]).toBe(`${CSP};report-uri /csp-report`);
    const report = await development.app.inject({
      method: "POST",
      url: "/csp-report",
      headers: { "content-type": "application/csp-report" },
      payload: JSON.stringify({ "csp-report": { "document-uri": "http://localhost/", "violated-directive": "script-src" } }),
    });
    expect(report.statusCode).toBe(204);
    expect((await server.app.inject({ method: "POST", url: "/csp-report", headers: { "content-type": "application/csp-report" }, payload: "{}" })).statusCode).toBe(404);
  });
});
