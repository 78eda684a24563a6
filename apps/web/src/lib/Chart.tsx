import { Box, Skeleton, useComputedColorScheme, useMantineTheme } from "@mantine/core";
import type { EChartsCoreOption } from "echarts/core";
import { useEffect, useRef, useState } from "react";

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

/** Resolves once the page has painted: after the next frame is drawn, not before. */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/**
 * An echarts chart, loaded once the page has painted, with only the chart types and components its
 * option uses, so pages without charts don't pay for them and pages with one don't wait for it. Its
 * box (with a skeleton) holds the chart's height meanwhile, so nothing moves when it arrives. Colours
 * follow the light or dark scheme (or the one a page forces); the chart resizes with its box.
 */
export function Chart({ option, height = 320, label, scheme: forced }: { option: EChartsCoreOption; height?: number; label: string; scheme?: "light" | "dark" }) {
  const ref = useRef<HTMLDivElement>(null);
  const [lib, setLib] = useState<ECharts | null>(null);
  const computed = useComputedColorScheme("light");
  // A page drawn in one scheme whatever the visitor chose (the projector board) says which.
  const scheme = forced ?? computed;
  const fontFamily = useMantineTheme().fontFamily;

  // The pieces an option needs, as a key: a new option with the same kinds of chart loads nothing.
  const pieces = useRef<string | null>(null);
  useEffect(() => {
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
  }, [option, lib]);

  useEffect(() => {
    if (!lib || !ref.current) return;
    const chart = lib.init(ref.current, scheme === "dark" ? "dark" : undefined, { renderer: "svg" });
    // The UI's typeface and the accessible series colours, unless the chart sets its own.
    chart.setOption({ backgroundColor: "transparent", animationDuration: 300, textStyle: { fontFamily }, color: SERIES_COLOURS[scheme === "dark" ? "dark" : "light"], ...option });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [lib, option, scheme, fontFamily]);

  return (
    <Box pos="relative" h={height} role="img" aria-label={label}>
      {!lib && <Skeleton h={height} />}
      <div ref={ref} style={{ position: "absolute", inset: 0 }} />
    </Box>
  );
}
