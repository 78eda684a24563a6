import { Box, Skeleton, useComputedColorScheme, useMantineTheme } from "@mantine/core";
import type { EChartsCoreOption } from "echarts/core";
import { useContext, useEffect, useRef, useState } from "react";
import "./chart.css";
import { KEEP_SERVER_HTML } from "./keep-server-html.ts";
import { drawnInReadersZone, useHydratingNow } from "./render-clock.ts";
import { SsrNotesContext } from "./ssr-state.ts";

/**
 * Series colours, eight hues told apart at a glance: each at least 3:1 against the scheme's cards
 * and at least 20 apart (CIEDE2000) from every other (series-colours.test.ts checks both). Hue
 * alone does not carry them: they alternate lighter and darker, so readers with red-green colour
 * blindness still tell neighbours apart, and the ninth and tenth lines repeat a colour dashed.
 * Light: blue, orange, green, magenta, lavender, teal, olive, ink. Dark: Okabe and Ito's palette
 * lightened, with red and violet where a salmon sat near the orange and a lavender near the pink.
 */
export const SERIES_COLOURS = {
  light: ["#2060b8", "#d87800", "#08a848", "#c01868", "#b870f0", "#087070", "#706808", "#1f2328"],
  dark: ["#56b4e9", "#e69f00", "#2fc09b", "#e08fc0", "#f0e442", "#ff5a5f", "#8f6cff", "#e6edf3"],
};

type ECharts = Awaited<ReturnType<typeof import("./echarts/pieces.ts").loadECharts>>;

/** Draws a chart's option to an SVG document, on the server (echarts/server-draw.ts). */
export type ChartSvgDrawer = (option: EChartsCoreOption, size: { width: number; height: number; dark: boolean }) => string;

let drawSvg: ChartSvgDrawer | null = null;

/** Set by the server's renderer: charts on the pages it draws are drawn there too. */
export function setChartSvgDrawer(drawer: ChartSvgDrawer): void {
  drawSvg = drawer;
}

/**
 * The width the server draws a chart at: a phone's (its chart box is 290-410 pixels wide, where
 * the drawing is shown; chart.css), where loading and running the chart library costs most.
 */
export const SERVER_CHART_WIDTH = 340;

/** The option as drawn: the UI's typeface and the accessible series colours, unless it sets its own. */
function drawnOption(option: EChartsCoreOption, dark: boolean, fontFamily: string | undefined): EChartsCoreOption {
  return { backgroundColor: "transparent", animationDuration: 300, textStyle: { fontFamily }, color: SERIES_COLOURS[dark ? "dark" : "light"], ...option };
}

/** Resolves once the page has painted: after the next frame is drawn, not before. */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/**
 * An echarts chart, loaded once the page has painted, with only the chart types and components its
 * option uses, so pages without charts don't pay for them and pages with one don't wait for it. Its
 * box (with a skeleton) holds the chart's height meanwhile, so nothing moves when it arrives. Colours
 * follow the light or dark scheme (or the one a page forces); the chart resizes with its box.
 *
 * On a page the server draws, the server draws the chart too, as an SVG a phone's width wide: a box
 * of about that width shows it (chart.css), others the skeleton. The browser keeps that drawing,
 * without loading the chart library, until the reader points at or taps the chart (for its tooltip),
 * what it shows changes (`dataKey`, the scheme), its box leaves that width, or the reader's time
 * zone is not the server's (a time axis is drawn in the server's); then it draws the chart itself.
 */
export function Chart({
  option,
  height = 320,
  label,
  scheme: forced,
  dataKey,
}: {
  option: EChartsCoreOption;
  height?: number;
  label: string;
  scheme?: "light" | "dark";
  /** What the chart shows, as a key (by default the option as JSON): a new key is drawn anew. */
  dataKey?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const ref = useRef<HTMLDivElement>(null);
  const drawnBox = useRef<HTMLDivElement>(null);
  const [lib, setLib] = useState<ECharts | null>(null);
  const computed = useComputedColorScheme("light");
  // A page drawn in one scheme whatever the visitor chose (the projector board) says which.
  const scheme = forced ?? computed;
  const fontFamily = useMantineTheme().fontFamily;
  const onServer = useContext(SsrNotesContext) !== null;
  const hydrating = useHydratingNow();
  const key = `${scheme} ${dataKey ?? JSON.stringify(option)}`;
  // What the server drew (this chart was hydrated), as a key; null when the browser draws it.
  const [drawn] = useState(() => (hydrating && !onServer ? key : null));
  // Whether the browser draws the chart (it loads the library for it).
  const [wanted, setWanted] = useState(drawn === null);

  let svg: string | null = null;
  if (onServer && drawSvg) {
    try {
      svg = drawSvg(drawnOption(option, scheme === "dark", fontFamily), { width: SERVER_CHART_WIDTH, height, dark: scheme === "dark" });
    } catch {
      // Left to the browser: an empty drawing, which it replaces.
      svg = "";
    }
  }

  // The server's drawing is kept while it shows what the chart shows, at about its width, to a
  // reader who has not pointed at it.
  useEffect(() => {
    if (wanted) return;
    const wake = () => setWanted(true);
    const element = box.current;
    const drawing = drawnBox.current;
    const hidden = () => !drawing || getComputedStyle(drawing).display === "none";
    if (!element || !drawing?.firstElementChild || hidden() || !drawnInReadersZone() || key !== drawn) {
      wake();
      return;
    }
    element.addEventListener("pointerdown", wake);
    element.addEventListener("pointerenter", wake);
    const observer = new ResizeObserver(() => hidden() && wake());
    observer.observe(element);
    return () => {
      element.removeEventListener("pointerdown", wake);
      element.removeEventListener("pointerenter", wake);
      observer.disconnect();
    };
  }, [wanted, key, drawn]);

  // The pieces an option needs, as a key: a new option with the same kinds of chart loads nothing.
  const pieces = useRef<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void import("./echarts/pieces.ts").then(async ({ loadECharts, piecesFor }) => {
      const key = piecesFor(option).join(",");
      if (lib && pieces.current === key) return;
      await afterPaint();
      const loaded = await loadECharts(option);
      pieces.current = key;
      if (live) setLib(() => loaded);
    });
    return () => {
      live = false;
    };
  }, [option, lib, wanted]);

  useEffect(() => {
    if (!lib || !ref.current) return;
    const dark = scheme === "dark";
    const chart = lib.init(ref.current, dark ? "dark" : undefined, { renderer: "svg" });
    chart.setOption(drawnOption(option, dark, fontFamily));
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [lib, option, scheme, fontFamily]);

  return (
    <Box ref={box} pos="relative" h={height} role="img" aria-label={label} className="fs-chart">
      {svg !== null ? (
        <div className="fs-chart-drawn" dangerouslySetInnerHTML={{ __html: svg }} />
      ) : (
        drawn !== null && !lib && <div ref={drawnBox} className="fs-chart-drawn" dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />
      )}
      {!lib && <Skeleton h={height} className="fs-chart-skeleton" />}
      <div ref={ref} style={{ position: "absolute", inset: 0 }} />
    </Box>
  );
}
