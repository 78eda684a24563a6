import { expect, test } from "@playwright/test";
import { BUDGET, formatTable, measureFirstLoad } from "../first-load.ts";

/** The built app's first load per route, and how the server sends its files. */

// Used only where a page needs them: never part of a route's first load.
const HEAVY = ["echarts", "zrender", "@codemirror/view", "@uiw/react-codemirror", "leaflet", "react-leaflet", "zxcvbn", "qrcode", "re2js"];
const MARKDOWN = ["react-markdown", "micromark", "rehype-sanitize"];

test("no route's first load carries the charts, the code editor, the map or password strength; CSS is in budget", async () => {
  const loads = measureFirstLoad();
  console.log(formatTable(loads));
  for (const load of loads) {
    expect(load.packages.filter((p) => HEAVY.includes(p)), load.route).toEqual([]);
    if (!load.route.includes("{challenge}")) expect(load.packages.filter((p) => MARKDOWN.includes(p)), load.route).toEqual([]);
    expect(load.cssBytes, load.route).toBeLessThanOrEqual(BUDGET.css);
  }
});

test("the server sends the build's brotli and gzip copies, hashed files immutable for a year, index.html uncached", async ({ request }) => {
  const page = await request.get("/leaderboard");
  expect(page.headers()["cache-control"]).toBe("no-cache");
  const html = await page.text();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeTruthy();

  const br = await request.get(script!, { headers: { "accept-encoding": "br" } });
  expect(br.status()).toBe(200);
  expect(br.headers()["content-encoding"]).toBe("br");
  expect(br.headers()["vary"]).toMatch(/accept-encoding/i);
  expect(br.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  const gz = await request.get(script!, { headers: { "accept-encoding": "gzip" } });
  expect(gz.headers()["content-encoding"]).toBe("gzip");
  // Both decode to the same script.
  expect(await gz.text()).toBe(await br.text());
});
