import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { Services } from "@flagship/api";
import type { FastifyInstance } from "fastify";

interface Image {
  type: string;
  body: Buffer;
  etag: string;
}

function image(type: string, body: Buffer): Image {
  return { type, body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

/**
 * GET /logo: the event's logo (the `logo` config key, a data URL staff upload) or, without one,
 * Flagship's mark. Revalidated on every use (no-cache with an ETag), so a new logo shows on the
 * next page load while an unchanged one costs a 304. An SVG is a document of its own when opened
 * directly, so it is sent sandboxed, with no script or outside resource allowed.
 */
export function registerLogo(app: FastifyInstance, services: Services, defaultMarkFile: string): void {
  const mark = image("image/svg+xml", existsSync(defaultMarkFile) ? readFileSync(defaultMarkFile) : Buffer.from(FALLBACK_MARK));
  let last: { logo: string; image: Image } | null = null;
  const current = async (): Promise<Image> => {
    const logo = await services.config.get("logo");
    const match = /^data:(image\/[a-z+]+);base64,(.+)$/.exec(logo);
    if (!match) return mark;
    if (last?.logo !== logo) last = { logo, image: image(match[1]!, Buffer.from(match[2]!, "base64")) };
    return last.image;
  };
  app.get("/logo", async (request, reply) => {
    // Without the database the mark still draws: a header must never show a broken image.
    const logo = await current().catch(() => mark);
    void reply
      .header("cache-control", "no-cache")
      .header("etag", logo.etag)
      .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header("vary", "accept-encoding");
    if (request.headers["if-none-match"] === logo.etag) return reply.code(304).send();
    return reply.type(logo.type).send(logo.body);
  });
}

/** The mark as the favicon draws it, for a server without the built web app. */
const FALLBACK_MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0b1220"/><path d="M9 6v20" stroke="#e2e8f0" stroke-width="2.5" stroke-linecap="round"/><path d="M11 7l14 5.5L11 18z" fill="#2dd4bf"/><rect x="17" y="22" width="8" height="2.5" rx="1.25" fill="#2dd4bf"/></svg>';
