import type { EChartsCoreOption } from "echarts/core";

type Piece = Parameters<typeof import("echarts/core").use>[0];

/**
 * The chart types and components Flagship draws, each its own module (and so its own chunk), so a page loads only those its
 * charts use (the leaderboard: the line chart, the grid and the tooltip).
 */
const PIECES: Record<string, () => Promise<Piece>> = {
  line: () => import("./line.ts").then((m) => m.default),
  bar: () => import("./bar.ts").then((m) => m.default),
  pie: () => import("./pie.ts").then((m) => m.default),
  grid: () => import("./grid.ts").then((m) => m.default),
  tooltip: () => import("./tooltip.ts").then((m) => m.default),
  legend: () => import("./legend.ts").then((m) => m.default),
  title: () => import("./title.ts").then((m) => m.default),
  dataZoom: () => import("./data-zoom.ts").then((m) => m.default),
};

/** The pieces an option needs: its series' types, the grid for axes, and the components it sets. */
export function piecesFor(option: EChartsCoreOption): string[] {
  const series = [option.series ?? []].flat() as { type?: string }[];
  const needed = new Set(series.flatMap((s) => (s.type && s.type in PIECES ? [s.type] : [])));
  if (needed.has("line") || needed.has("bar") || option.xAxis !== undefined) needed.add("grid");
  for (const component of ["tooltip", "legend", "title", "dataZoom"]) if (option[component] !== undefined) needed.add(component);
  return [...needed].sort();
}

/** echarts' core with the pieces an option needs registered. */
export async function loadECharts(option: EChartsCoreOption) {
  const [{ echarts }, ...pieces] = await Promise.all([import("./core.ts"), ...piecesFor(option).map((name) => PIECES[name]!())]);
  echarts.use(pieces.flat());
  return echarts;
}
