import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Pages shorter than this are sent as they are: compressing them saves less than it costs. */
const SMALLEST_COMPRESSED = 1_024;
/**
 * Brotli's quality for pages: 4 compresses a drawn page (30-60 KB of HTML and its data) to about a
 * fifth in well under a millisecond; the higher qualities the build uses for its files take tens
 * of milliseconds, which a page drawn per request cannot spend.
 */
const PAGE_BROTLI_QUALITY = 4;
const PAGE_GZIP_LEVEL = 6;

export type PageEncoding = "br" | "gzip";

/** The encoding to send a page in, from the request's Accept-Encoding (brotli first), or null for none. */
export function pageEncoding(acceptEncoding: string | string[] | undefined): PageEncoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "");
  const accepted = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const takes = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (takes("br")) return "br";
  if (takes("gzip")) return "gzip";
  return null;
}

/**
 * Compressed copies of pages. A page object served to many (a visitors' page kept for a second, the
 * static shell) is compressed once per encoding; the copies go with the page object.
 */
export class PageCompressor {
  private readonly copies = new WeakMap<object, Partial<Record<PageEncoding, Promise<Buffer>>>>();

  /** The page's body in `encoding`, or the page as it is (null encoding, or too short to gain). */
  async encode(page: { html: string }, encoding: PageEncoding | null): Promise<{ body: string | Buffer; encoding: PageEncoding | null }> {
    if (encoding === null || page.html.length < SMALLEST_COMPRESSED) return { body: page.html, encoding: null };
    let copies = this.copies.get(page);
    if (!copies) this.copies.set(page, (copies = {}));
    let copy = copies[encoding];
    if (!copy) {
      copy = encoding === "br"
        ? brotli(page.html, { params: { [constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
        : gz(page.html, { level: PAGE_GZIP_LEVEL });
      copies[encoding] = copy;
    }
    return { body: await copy, encoding };
  }
}
