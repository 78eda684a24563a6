// The server's chart drawer: echarts' core with every chart type and component Flagship draws and
// the SVG renderer, drawing to a string (echarts' server-side mode). The server's renderer imports
// this module; the browser never loads it (it loads the pieces a chart needs: pieces.ts).
import type { EChartsCoreOption } from "echarts/core";
import * as echarts from "echarts/core";
import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import { type ChartSvgDrawer, setChartSvgDrawer } from "../Chart.tsx";

// No tooltip or data zoom: both need a browser (a tooltip is shown once the reader points at the
// chart, by which time the browser draws it).
echarts.use([SVGRenderer, LineChart, BarChart, PieChart, GridComponent, LegendComponent, TitleComponent]);

/**
 * Drawings of late, by what they draw: a page is drawn more than once while it finds its data (the
 * score graph draws up to the page's moment, the same in each draw: ScoreGraph.tsx), and a team's
 * or a player's charts are the same for everyone who opens their page. Drawing one takes 5-20 ms.
 */
const recent = new Map<string, string>();
const RECENT_MAX = 32;

const drawChartSvg: ChartSvgDrawer = (option, { width, height, dark }) => {
  const { tooltip: _tooltip, dataZoom: _dataZoom, ...drawable } = option as EChartsCoreOption & { tooltip?: unknown; dataZoom?: unknown };
  const key = `${width}x${height} ${dark ? "dark" : "light"} ${JSON.stringify(drawable)}`;
  const kept = recent.get(key);
  if (kept !== undefined) {
    // Most recently used last: the first is the one to drop.
    recent.delete(key);
    recent.set(key, kept);
    return kept;
  }
  const chart = echarts.init(null, dark ? "dark" : undefined, { renderer: "svg", ssr: true, width, height });
  try {
    chart.setOption({ ...drawable, animation: false });
    const svg = chart.renderToSVGString({ useViewBox: true });
    recent.set(key, svg);
    if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
    return svg;
  } finally {
    chart.dispose();
  }
};

setChartSvgDrawer(drawChartSvg);
