import { BUDGET, measureFirstLoad, type RouteLoad } from "../../apps/web/first-load.ts";

/**
 * The first load of each route of the built web app: the gzipped JavaScript and CSS fetched to draw
 * it on a cold visit, against the budget (250 KB of JS, 30 KB of CSS). Needs the web build.
 */
export function benchFirstLoad(): RouteLoad[] {
  return measureFirstLoad();
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The BENCHMARKS.md section for the first-load measurement. */
export function firstLoadSection(loads: RouteLoad[]): string {
  const lines = [
    "## First load per route",
    "",
    `Gzipped JavaScript and CSS a cold visit fetches to draw each route (budget: ${kb(BUDGET.js)} of JS, ${kb(BUDGET.css)} of CSS).`,
    "",
    "| route | JS (gzip) | CSS (gzip) | files | within budget |",
    "|---|---|---|---|---|",
  ];
  for (const l of loads) {
    const ok = l.jsBytes <= BUDGET.js && l.cssBytes <= BUDGET.css;
    lines.push(`| ${l.route} | ${kb(l.jsBytes)} | ${kb(l.cssBytes)} | ${l.files} | ${ok ? "yes" : "no"} |`);
  }
  return lines.join("\n");
}
