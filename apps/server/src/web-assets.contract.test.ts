import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "./testing.ts";

/** The built web app as the server sends it: precompressed copies, long caching for hashed files. */

let server: TestServer;
let webDist: string;
const SCRIPT = `console.log(${JSON.stringify("flagship ".repeat(200))});\n`;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), "flagship-web-"));
  await mkdir(path.join(webDist, "assets"));
  await mkdir(path.join(webDist, ".vite"));
  await writeFile(path.join(webDist, "index.html"), `<!doctype html><html><head><title>Flagship</title></head><body><script type="module" src="/assets/app-Ab12Cd34.js"></script><noscript>${"<p>Flagship needs JavaScript.</p>".repeat(40)}</noscript></body></html>`);
  const script = path.join(webDist, "assets", "app-Ab12Cd34.js");
  await writeFile(script, SCRIPT);
  await writeFile(`${script}.br`, brotliCompressSync(SCRIPT));
  await writeFile(`${script}.gz`, gzipSync(SCRIPT));
  await writeFile(path.join(webDist, "assets", "plain-Zz99Yy88.css"), "body{margin:0}");
  await writeFile(path.join(webDist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  await writeFile(path.join(webDist, ".vite", "manifest.json"), "{}");
  server = await createTestServer({ WEB_DIST: webDist, DATA_DIR: path.join(webDist, "data") });
});
afterAll(async () => {
  await server.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) => server.app.inject({ method: "GET", url, headers: encoding === undefined ? {} : { "accept-encoding": encoding } });

describe("hashed assets", () => {
  it("are sent as the brotli copy when the client takes brotli, cached for a year as immutable", async () => {
    const res = await get("/assets/app-Ab12Cd34.js", "gzip, deflate, br");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it("are sent as the gzip copy to a client without brotli", async () => {
    const res = await get("/assets/app-Ab12Cd34.js", "gzip");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it("are sent as they are to a client that takes no encoding, and when no copy exists", async () => {
    const plain = await get("/assets/app-Ab12Cd34.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    const css = await get("/assets/plain-Zz99Yy88.css", "br, gzip");
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-encoding"]).toBeUndefined();
    expect(css.body).toBe("body{margin:0}");
    expect(css.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});

describe("pages", () => {
  it("index.html is never cached, nor kept by shared caches (it may be drawn for one viewer), at / and at any page address", async () => {
    for (const url of ["/", "/campaign/web"]) {
      const res = await get(url, "br");
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
      expect(res.headers.vary).toMatch(/Cookie/);
      expect(brotliDecompressSync(res.rawPayload).toString()).toContain("/assets/app-Ab12Cd34.js");
    }
  });

  it("are compressed as sent: brotli when the client takes it, else gzip, else as they are", async () => {
    const plain = await get("/campaign/web");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await get("/campaign/web", "gzip, deflate, br, zstd");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzipped = await get("/", "gzip;q=1, br;q=0");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
    expect((await get("/", "identity")).headers["content-encoding"]).toBeUndefined();
    expect((await get("/", "*")).headers["content-encoding"]).toBe("br");
  });

  it("files outside assets/ are revalidated hourly; the build manifest is not served; a missing asset is a 404", async () => {
    const icon = await get("/favicon.svg");
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
    expect((await get("/.vite/manifest.json")).statusCode).toBe(404);
    expect((await get("/assets/missing-00000000.js", "br")).statusCode).toBe(404);
  });
});

describe("the first-run setup", () => {
  const runtimeOf = (html: string) => JSON.parse(/<script type="application\/json" id="flagship-runtime">(.*?)<\/script>/.exec(html)?.[1] ?? "null") as Record<string, unknown>;

  it("is announced in the page while the server has no account, and no longer once one exists", async () => {
    // This server's database is its own and starts without accounts.
    for (const url of ["/", "/register", "/campaign/web"]) expect(runtimeOf((await get(url)).body)).toMatchObject({ setup: true });
    await server.world.services.db.user.create({ data: { username: "first", email: "first@example.test", passwordHash: "x", isStaff: true } });
    for (const url of ["/", "/register"]) expect(runtimeOf((await get(url)).body).setup).toBeUndefined();
  });
});

describe("the logo", () => {
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  const setLogo = async (logo: string) => {
    await server.world.services.db.config.upsert({ where: { key: "logo" }, create: { key: "logo", value: logo }, update: { value: logo } });
    server.world.services.config.invalidate();
  };

  it("is Flagship's mark until staff upload one, then the upload, revalidated by ETag and sent sandboxed", async () => {
    await setLogo("");
    const mark = await get("/logo");
    expect(mark.statusCode).toBe(200);
    expect(mark.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(mark.body).toBe("<svg xmlns='http://www.w3.org/2000/svg'/>");
    expect(mark.headers["cache-control"]).toBe("no-cache");
    expect(mark.headers["content-security-policy"]).toMatch(/sandbox/);

    await setLogo(`data:image/png;base64,${PNG.toString("base64")}`);
    const logo = await get("/logo");
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect(logo.headers.etag).not.toBe(mark.headers.etag);
    const again = await server.app.inject({ method: "GET", url: "/logo", headers: { "if-none-match": String(logo.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it("is read on its own: the configuration list leaves it out, one key read gives it to anyone", async () => {
    await setLogo(`data:image/png;base64,${PNG.toString("base64")}`);
    const list = await server.api("GET", "/config/");
    expect(Object.keys(list.body.d)).not.toContain("logo");
    const one = await server.api("GET", "/config/logo/");
    expect(one.body.d).toBe(`data:image/png;base64,${PNG.toString("base64")}`);
  });
});
