import { expect, test } from "@playwright/test";
import { readdirSync } from "node:fs";
import path from "node:path";
import { BUDGET, formatTable, measureFirstLoad, packagesIn } from "../first-load.ts";

/** The built app's first load per route, and how the server sends its files. */

// Used only where a page needs them: never part of a route's first load.
const HEAVY = ["echarts", "zrender", "@codemirror/view", "@uiw/react-codemirror", "leaflet", "react-leaflet", "zxcvbn", "qrcode", "re2js"];
const MARKDOWN = ["react-markdown", "remark-gfm", "remark-parse", "rehype-sanitize", "micromark", "unified"];
// Loaded only by markdown that uses it: the code highlighter.
const MARKDOWN_EXTRAS = ["lowlight", "highlight.js"];

test("the build runs on React itself: react-dom renders every route, no other runtime is in any chunk", async () => {
  const dist = path.join(import.meta.dirname, "..", "dist");
  for (const load of measureFirstLoad()) {
    expect(load.packages, load.route).toContain("react-dom");
    expect(load.packages, load.route).toContain("react");
  }
  const chunks = readdirSync(path.join(dist, "assets")).filter((f) => f.endsWith(".js"));
  const everyPackage = new Set(chunks.flatMap((file) => packagesIn(dist, path.join("assets", file))));
  expect([...everyPackage].filter((p) => p === "preact" || p.startsWith("@preact/"))).toEqual([]);
});

test("no route's first load carries the charts, the code editor, the map or password strength; CSS is in budget", async () => {
  const loads = measureFirstLoad();
  console.log(formatTable(loads));
  for (const load of loads) {
    expect(load.packages.filter((p) => HEAVY.includes(p) || MARKDOWN_EXTRAS.includes(p)), load.route).toEqual([]);
    if (!load.route.includes("{challenge}")) expect(load.packages.filter((p) => MARKDOWN.includes(p)), load.route).toEqual([]);
    expect(load.cssBytes, load.route).toBeLessThanOrEqual(BUDGET.css);
    // Pages use the shared package's plain helpers, not its schemas: zod loads only with the
    // editors and forms that validate with it.
    expect(load.packages, load.route).not.toContain("zod");
  }
});

test("every route's first load is within the JS budget; the shell stays lean", async () => {
  const loads = measureFirstLoad();
  for (const load of loads) expect(load.jsBytes, load.route).toBeLessThanOrEqual(BUDGET.js);
  // The shell draws no dialog, tooltip or popover: their code (and the floating-position library)
  // loads with the pages that use them.
  const home = loads.find((l) => l.route === "/")!;
  expect(home.packages.filter((p) => p.startsWith("@floating-ui/"))).toEqual([]);
  // Tables bring it (Mantine's ScrollArea imports from it); dialogs (Mantine's Modal, with its
  // ScrollArea) load after their page is drawn. The login page and the challenge pages do not bring
  // it (their tooltips and the locked tile's panel are CSS-positioned, the challenge-server card
  // loads only where there is a server), nor does the configuration page (native selects).
  const challengePages = ["/campaign", "/campaign/{category} (jeopardy)", "/campaign/{category} (campaign)", "/campaign/{category}/{challenge}"];
  for (const route of ["/login", ...challengePages, "/admin/config"]) {
    expect(loads.find((l) => l.route === route)!.packages.filter((p) => p.startsWith("@floating-ui/")), route).toEqual([]);
  }
});

test("the server sends the build's brotli and gzip copies, hashed files immutable for a year, index.html uncached", async ({ request }) => {
  const page = await request.get("/leaderboard");
  expect(page.headers()["cache-control"]).toBe("private, no-cache");
  const html = await page.text();
  // Every script the page names that is worth compressing (the build skips files under 512 bytes).
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let compressed = 0;
  for (const script of scripts) {
    const plain = await request.get(script, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    const body = await plain.text();
    if (body.length < 512) continue;
    compressed += 1;
    const br = await request.get(script, { headers: { "accept-encoding": "br" } });
    expect(br.headers()["content-encoding"], script).toBe("br");
    expect(br.headers()["vary"]).toMatch(/accept-encoding/i);
    const gz = await request.get(script, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers()["content-encoding"], script).toBe("gzip");
    // Both decode to the same script.
    expect(await br.text()).toBe(body);
    expect(await gz.text()).toBe(body);
  }
  expect(compressed).toBeGreaterThan(0);
});

test.describe("before any script has run", () => {
  test.use({ javaScriptEnabled: false });

  test("the HTML alone draws the shell: header, sidebar and a page skeleton, at desktop and phone width", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // A page the browser draws (account settings): the public and player pages come drawn by the server.
    await page.goto("/settings");
    await expect(page.locator(".boot-header")).toBeVisible();
    await expect(page.locator(".boot-navbar")).toBeVisible();
    await expect(page.locator(".boot-main .boot-title")).toBeVisible();
    // The header has the app's geometry (shell.css): 56 px high, beside the 240 px sidebar.
    expect(await page.locator(".boot-header").boundingBox()).toMatchObject({ x: 240, y: 0, height: 56 });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.locator(".boot-navbar")).toBeHidden();
    expect(await page.locator(".boot-header").boundingBox()).toMatchObject({ x: 0, y: 0, width: 390, height: 56 });
  });
});

test("React replaces the static shell with the real one on its first render", async ({ page }) => {
  await page.goto("/leaderboard");
  await expect(page.locator("header.app-header")).toBeVisible();
  await expect(page.locator(".boot-shell")).toHaveCount(0);
  const header = await page.locator("header.app-header").boundingBox();
  expect(header?.height).toBe(56);
});
