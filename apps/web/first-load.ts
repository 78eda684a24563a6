import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The first load of each route, measured on the built web app: the gzipped JavaScript and CSS a
 * browser fetches to draw the route's page on a cold visit (the entry with everything it imports,
 * then the route's page chunk with its static imports), read from Vite's manifest. Lazy pieces a
 * page loads only when needed (charts, the code editor, the map, password strength) are not counted.
 *
 *   npx tsx apps/web/first-load.ts            # prints the table; exits 1 when a route is over budget
 */

// The shell carries the hydration of server-drawn pages (their query cache and router state) since
// pages are drawn on the server: 10 KB more than the 250 KB it had before.
export const BUDGET = { js: 260 * 1024, css: 30 * 1024 };

/** Each route and the source module of its page (the lazy chunk the route draws). */
export const ROUTE_PAGES: Record<string, string[]> = {
  "/": ["src/pages/HomePage.tsx"],
  "/login": ["src/features/auth/LoginPage.tsx"],
  "/register": ["src/features/auth/RegisterPage.tsx"],
  "/campaign": ["src/features/challenges/CampaignPage.tsx"],
  "/campaign/{category} (jeopardy)": ["src/features/challenges/pages.tsx", "src/features/challenges/JeopardyLayout.tsx"],
  "/campaign/{category} (campaign)": ["src/features/challenges/pages.tsx", "src/features/challenges/CampaignGrid.tsx"],
  "/campaign/{category}/{challenge}": ["src/features/challenges/pages.tsx", "src/lib/MarkdownRenderer.tsx"],
  "/leaderboard": ["src/features/leaderboard/LeaderboardPage.tsx"],
  "/largeLeaderboard": ["src/features/leaderboard/LargeLeaderboardPage.tsx"],
  "/users": ["src/features/profiles/UsersListPage.tsx"],
  "/teams": ["src/features/teams/TeamsListPage.tsx"],
  "/profile/{user}": ["src/features/profiles/ProfilePage.tsx"],
  "/team/{team}": ["src/features/teams/TeamPage.tsx"],
  "/settings": ["src/features/auth/settings/SettingsPage.tsx"],
  "/admin/config": ["src/features/admin/ConfigPage.tsx"],
  "/admin/statistics": ["src/features/admin/StatisticsPage.tsx"],
};

interface Chunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export interface RouteLoad {
  route: string;
  jsBytes: number;
  cssBytes: number;
  files: number;
  /** The npm packages in the route's first load, read from the chunks' source maps. */
  packages: string[];
}

const WEB_ROOT = path.dirname(fileURLToPath(import.meta.url));

/** The gzipped size of a built file: its .gz copy from the build when there is one. */
function gzippedSize(dist: string, file: string): number {
  const full = path.join(dist, file);
  if (existsSync(`${full}.gz`)) return readFileSync(`${full}.gz`).length;
  return gzipSync(readFileSync(full), { level: 9 }).length;
}

/** The npm packages a built chunk holds code from, by its source map. */
export function packagesIn(dist: string, file: string): string[] {
  const map = path.join(dist, `${file}.map`);
  if (!existsSync(map)) return [];
  const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
  return sources.flatMap((source) => {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
    return match ? [match[1]!] : [];
  });
}

export function measureFirstLoad(dist = path.join(WEB_ROOT, "dist")): RouteLoad[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8")) as Record<string, Chunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error("the manifest has no entry");
  // Stylesheets index.html links itself (the entry's CSS) are listed there, not in the manifest.
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const linkedCss = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]!);

  const collect = (key: string, seen: Set<string>) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest: is the route table out of date?`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) collect(imported, seen);
  };

  // A page module that is also imported statically elsewhere is listed under its chunk's name.
  const keyOf = (page: string) => {
    if (manifest[page]) return page;
    const name = path.basename(page, path.extname(page));
    return Object.keys(manifest).find((key) => key.startsWith(`_${name}-`) && key.endsWith(".js")) ?? page;
  };

  return Object.entries(ROUTE_PAGES).map(([route, pages]) => {
    const keys = new Set<string>();
    collect(entryKey, keys);
    for (const page of pages) collect(keyOf(page), keys);
    const js = new Set([...keys].map((k) => manifest[k]!.file));
    const css = new Set([...linkedCss, ...[...keys].flatMap((k) => manifest[k]!.css ?? [])]);
    const sum = (files: Set<string>) => [...files].reduce((total, file) => total + gzippedSize(dist, file), 0);
    const packages = new Set([...js].flatMap((file) => packagesIn(dist, file)));
    return { route, jsBytes: sum(js), cssBytes: sum(css), files: js.size + css.size, packages: [...packages].sort() };
  });
}

export function overBudget(loads: RouteLoad[]): RouteLoad[] {
  return loads.filter((l) => l.jsBytes > BUDGET.js || l.cssBytes > BUDGET.css);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatTable(loads: RouteLoad[]): string {
  const lines = ["| route | JS (gzip) | CSS (gzip) | files |", "|---|---|---|---|"];
  for (const l of loads) lines.push(`| ${l.route} | ${kb(l.jsBytes)} | ${kb(l.cssBytes)} | ${l.files} |`);
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const loads = measureFirstLoad();
  console.log(formatTable(loads));
  console.log(`\nbudget: ${kb(BUDGET.js)} of JS and ${kb(BUDGET.css)} of CSS per route`);
  const over = overBudget(loads);
  if (over.length > 0) {
    console.log(`over budget: ${over.map((l) => l.route).join(", ")}`);
    process.exitCode = 1;
  }
}
