import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import type { Seeded } from "../seed.ts";

/**
 * Lighthouse on the built web app, as a phone on a slow network sees it: the mobile preset
 * (Lighthouse's default: a Moto G-class screen, slow 4G and a 4x slower CPU, simulated), each
 * route three times on a fresh cache, the median of each figure reported.
 */

/** Runs per route (BENCH_LIGHTHOUSE_RUNS overrides), the median reported. */
export const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
export const LIGHTHOUSE_GOAL = { performance: 0.8, lcpMs: 2500, cls: 0.02, tbtMs: 400, accessibility: 1 };

/**
 * rCTF's current web client (SvelteKit 2 / Svelte 5, built and served as its production image does)
 * on the same seeded event, measured the same way on the same machine class (the figures the goal
 * compares with: each route is to score above rCTF's).
 */
export const RCTF: Record<string, { performance: number; lcpMs: number; tbtMs: number; jsKb: number }> = {
  "/": { performance: 0.77, lcpMs: 3400, tbtMs: 475, jsKb: 166 },
  "/login": { performance: 0.83, lcpMs: 3500, tbtMs: 232, jsKb: 150 },
  "/campaign/{category} (signed in)": { performance: 0.63, lcpMs: 4300, tbtMs: 649, jsKb: 219 },
  "/leaderboard": { performance: 0.43, lcpMs: 5500, tbtMs: 2025, jsKb: 185 },
};

export interface LighthouseRow {
  route: string;
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** JavaScript transferred (KB, compressed) by the median run. */
  jsKb: number;
  /** Main-thread time by kind of work (Lighthouse's groups: script evaluation, parsing, style and layout...), ms, median run. */
  mainThread: Record<string, number>;
  /** The elements that shifted (selector and score), from the run with the median CLS. */
  shifts: { selector: string; score: number }[];
  /** The main thread's long tasks (what ran them, how long at the slowdown), from the run with the median TBT. */
  longTasks: { url: string; startMs: number; durationMs: number }[];
}

interface AuditItems<T> {
  details?: { items?: T[] };
}

function mainThreadBreakdown(audit: AuditItems<{ groupLabel?: string; duration?: number }> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of audit?.details?.items ?? []) if (item.groupLabel) out[item.groupLabel] = Math.round(item.duration ?? 0);
  return out;
}

function shiftedElements(audit: AuditItems<{ node?: { selector?: string; snippet?: string }; score?: number }> | undefined): { selector: string; score: number }[] {
  return (audit?.details?.items ?? []).map((item) => ({ selector: item.node?.selector ?? item.node?.snippet ?? "?", score: item.score ?? 0 }));
}

function longTasks(audit: AuditItems<{ url?: string; startTime?: number; duration?: number }> | undefined): LighthouseRow["longTasks"] {
  return (audit?.details?.items ?? []).map((item) => ({ url: item.url ?? "?", startMs: Math.round(item.startTime ?? 0), durationMs: Math.round(item.duration ?? 0) }));
}

/** The routes to measure (BENCH_LIGHTHOUSE_ROUTES: names, comma-separated), or all. */
export const LIGHTHOUSE_ONLY = process.env.BENCH_LIGHTHOUSE_ROUTES ? new Set(process.env.BENCH_LIGHTHOUSE_ROUTES.split(",").map((name) => name.trim())) : null;

interface Route {
  name: string;
  path: string;
  /** Drawn for a signed-in player (the token is in the browser's storage and its cookie before the run). */
  signedIn: boolean;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The seeded event's first category and one of its challenges, as a player sees them. */
async function firstChallenge(baseUrl: string, token: string): Promise<{ category: number; challenge: number }> {
  const res = await fetch(`${baseUrl}/api/v2/challenges/categories/`, { headers: { authorization: `Token ${token}` } });
  const body = (await res.json()) as { d: { id: number; challenges: { id: number }[] }[] };
  const category = body.d.find((c) => c.challenges.length > 0);
  if (!category) throw new Error("the seeded event has no challenges");
  return { category: category.id, challenge: category.challenges[0]!.id };
}

export async function benchLighthouse(baseUrl: string, seeded: Seeded, log: (line: string) => void = console.log): Promise<LighthouseRow[]> {
  const token = seeded.tokens[0]!;
  const { category, challenge } = await firstChallenge(baseUrl, token);
  const routes: Route[] = [
    { name: "/", path: "/", signedIn: false },
    { name: "/login", path: "/login", signedIn: false },
    { name: "/campaign/{category} (signed in)", path: `/campaign/${category}`, signedIn: true },
    { name: "/campaign/{category}/{challenge} (signed in)", path: `/campaign/${category}/${challenge}`, signedIn: true },
    { name: "/leaderboard", path: "/leaderboard", signedIn: false },
  ].filter((route) => !LIGHTHOUSE_ONLY || LIGHTHOUSE_ONLY.has(route.name));
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // The same browser, driven over its debugging port, signs the player in as the app does (the
  // token in the site's storage and the session cookie beside it) or out again, and empties the
  // HTTP cache before each run: signing in opens a page, which fills it.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0]!;
  const setToken = async (value: string | null) => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/privacy`);
    await page.evaluate(value === null ? `localStorage.removeItem("flagship.token")` : `localStorage.setItem("flagship.token", ${JSON.stringify(value)})`);
    if (value === null) await context.clearCookies();
    else await context.addCookies([{ name: "flagship.session", value, url: baseUrl }]);
    await page.close();
  };
  const clearCache = async () => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    await cdp.detach();
    await page.close();
  };
  const rows: LighthouseRow[] = [];
  try {
    for (const route of routes) {
      await setToken(route.signedIn ? token : null);
      const runs: LighthouseRow[] = [];
      for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
        // Storage is kept for a signed-in run (the token, the cookie); the cache is emptied before
        // every run, so each is a first visit.
        await clearCache();
        // A run Lighthouse could not complete (a runtime error, a metric it could not compute) is run
        // again, twice at most, rather than counted.
        let result: Awaited<ReturnType<typeof lighthouse>>;
        for (let attempt = 1; ; attempt++) {
          if (attempt > 1) await clearCache();
          result = await lighthouse(`${baseUrl}${route.path}`, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance", "accessibility"],
            disableStorageReset: route.signedIn,
          });
          const audits = result?.lhr.audits;
          const complete = !result?.lhr.runtimeError && ["largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift"].every((id) => typeof audits?.[id]?.numericValue === "number");
          if (complete || attempt === 3) break;
          log(`  ${route.path}: Lighthouse did not complete a run (${result?.lhr.runtimeError?.code ?? "a metric is missing"}); running it again`);
        }
        if (!result) throw new Error(`Lighthouse gave no result for ${route.path}`);
        const { categories, audits } = result.lhr;
        runs.push({
          route: route.name,
          performance: categories.performance?.score ?? 0,
          accessibility: categories.accessibility?.score ?? 0,
          fcpMs: audits["first-contentful-paint"]?.numericValue ?? NaN,
          lcpMs: audits["largest-contentful-paint"]?.numericValue ?? NaN,
          cls: audits["cumulative-layout-shift"]?.numericValue ?? NaN,
          tbtMs: audits["total-blocking-time"]?.numericValue ?? NaN,
          jsKb: scriptKb(audits["network-requests"] as AuditItems<{ resourceType?: string; transferSize?: number }> | undefined),
          mainThread: mainThreadBreakdown(audits["mainthread-work-breakdown"] as AuditItems<{ groupLabel?: string; duration?: number }> | undefined),
          shifts: shiftedElements(audits["layout-shifts"] as AuditItems<{ node?: { selector?: string }; score?: number }> | undefined),
          longTasks: longTasks(audits["long-tasks"] as AuditItems<{ url?: string; startTime?: number; duration?: number }> | undefined),
        });
      }
      const row: LighthouseRow = {
        route: route.name,
        performance: median(runs.map((r) => r.performance)),
        accessibility: median(runs.map((r) => r.accessibility)),
        fcpMs: median(runs.map((r) => r.fcpMs)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        cls: median(runs.map((r) => r.cls)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
        jsKb: median(runs.map((r) => r.jsKb)),
        mainThread: [...runs].sort((a, b) => a.tbtMs - b.tbtMs)[Math.floor(runs.length / 2)]!.mainThread,
        longTasks: [...runs].sort((a, b) => a.tbtMs - b.tbtMs)[Math.floor(runs.length / 2)]!.longTasks,
        shifts: [...runs].sort((a, b) => a.cls - b.cls)[Math.floor(runs.length / 2)]!.shifts,
      };
      log(`${row.route}: performance ${row.performance}, LCP ${Math.round(row.lcpMs)} ms, CLS ${row.cls.toFixed(3)}, TBT ${Math.round(row.tbtMs)} ms, JS ${row.jsKb} KB, accessibility ${row.accessibility}`);
      log(`  main thread: ${Object.entries(row.mainThread).map(([k, v]) => `${k} ${v} ms`).join(", ")}`);
      for (const shift of row.shifts) log(`  shifted: ${shift.selector} (${shift.score.toFixed(3)})`);
      for (const task of row.longTasks) log(`  long task: ${task.durationMs} ms at ${task.startMs} ms, ${task.url.replace(baseUrl, "")}`);
      rows.push(row);
    }
  } finally {
    await browser.close().catch(() => {});
    chrome.kill();
  }
  return rows;
}

/** JavaScript transferred, in KB. */
function scriptKb(audit: AuditItems<{ resourceType?: string; transferSize?: number }> | undefined): number {
  return Math.round((audit?.details?.items ?? []).filter((item) => item.resourceType === "Script").reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024);
}

/** Whether a row meets every goal, and scores above rCTF's figure where there is one. */
export function meetsGoal(row: LighthouseRow): boolean {
  const goal = LIGHTHOUSE_GOAL;
  const rctf = RCTF[row.route];
  return (
    row.performance >= goal.performance &&
    (!rctf || row.performance > rctf.performance) &&
    row.lcpMs <= goal.lcpMs &&
    row.cls <= goal.cls &&
    row.tbtMs <= goal.tbtMs &&
    row.accessibility >= goal.accessibility
  );
}

/** The BENCHMARKS.md section: the table, with the load on the machine while it ran. */
export function lighthouseSection(rows: LighthouseRow[], loadAverage: number[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const lines = [
    "## Lighthouse (mobile)",
    "",
    `Lighthouse's mobile preset (simulated slow 4G, 4x CPU slowdown) on the built app and a seeded event, median of ${LIGHTHOUSE_RUNS} runs per route, each a first visit (\`npm run bench:lighthouse\`).`,
    `Goal per row: performance ≥ ${LIGHTHOUSE_GOAL.performance} and above rCTF's, LCP ≤ ${s(LIGHTHOUSE_GOAL.lcpMs)}, CLS ≤ ${LIGHTHOUSE_GOAL.cls}, TBT ≤ ${LIGHTHOUSE_GOAL.tbtMs} ms, accessibility 100.`,
    "Pages are drawn on the server (the public and player routes) and hydrated in the browser; signed-in rows sign in as the app does (token and session cookie), then empty the HTTP cache before each run.",
    "rCTF's figures: its current web client (SvelteKit 2 / Svelte 5, production build) on the same seeded event, measured the same way on this machine class.",
    `Load average on the machine while it ran: ${loadAverage.map((l) => l.toFixed(1)).join(", ")} (1, 5, 15 min); the simulated throttling scales from the CPU time measured, so a busy machine lowers performance and raises TBT and LCP.`,
    "",
    "| route | performance | FCP | LCP | CLS | TBT | JS | accessibility | rCTF: performance, LCP, TBT, JS | goal met |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const rctf = RCTF[r.route];
    const theirs = rctf ? `${rctf.performance.toFixed(2)}, ${s(rctf.lcpMs)}, ${rctf.tbtMs} ms, ${rctf.jsKb} KB` : "-";
    lines.push(
      `| ${r.route} | ${r.performance.toFixed(2)} | ${s(r.fcpMs)} | ${s(r.lcpMs)} | ${r.cls.toFixed(3)} | ${Math.round(r.tbtMs)} ms | ${r.jsKb} KB | ${Math.round(r.accessibility * 100)} | ${theirs} | ${meetsGoal(r) ? "yes" : "no"} |`,
    );
  }
  // Where the main thread's time went (the 4x slowed CPU), which is what TBT and LCP wait on.
  const groups = [...new Set(rows.flatMap((r) => Object.keys(r.mainThread)))].sort(
    (a, b) => rows.reduce((t, r) => t + (r.mainThread[b] ?? 0), 0) - rows.reduce((t, r) => t + (r.mainThread[a] ?? 0), 0),
  );
  lines.push("", "Main-thread time per route (the median run, 4x CPU slowdown), by kind of work:", "", `| route | ${groups.join(" | ")} |`, `|---|${groups.map(() => "---:").join("|")}|`);
  for (const r of rows) lines.push(`| ${r.route} | ${groups.map((g) => `${r.mainThread[g] ?? 0} ms`).join(" | ")} |`);
  const shifted = rows.filter((r) => r.shifts.length > 0);
  if (shifted.length > 0) {
    lines.push("", "What shifted (the run with the median CLS):", "");
    for (const r of shifted) lines.push(`- ${r.route}: ${r.shifts.map((x) => `\`${x.selector}\` (${x.score.toFixed(3)})`).join(", ")}`);
  }
  return lines.join("\n");
}
