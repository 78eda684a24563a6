import { Box, Skeleton, useComputedColorScheme } from "@mantine/core";
import type { EChartsCoreOption } from "echarts/core";
import { useEffect, useRef, useState } from "react";

type EChartsModule = typeof import("./echarts.ts");
let loading: Promise<EChartsModule> | undefined;

/**
 * An echarts chart, loaded on first use so pages without charts don't pay for it. Colours follow
 * the light or dark scheme; the chart resizes with its box.
 */
export function Chart({ option, height = 320, label }: { option: EChartsCoreOption; height?: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [lib, setLib] = useState<EChartsModule | null>(null);
  const scheme = useComputedColorScheme("light");

  useEffect(() => {
    loading ??= import("./echarts.ts");
    let live = true;
    void loading.then((m) => live && setLib(m));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!lib || !ref.current) return;
    const chart = lib.echarts.init(ref.current, scheme === "dark" ? "dark" : undefined, { renderer: "svg" });
    chart.setOption({ backgroundColor: "transparent", animationDuration: 300, ...option });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [lib, option, scheme]);

  return (
    <Box pos="relative" h={height} role="img" aria-label={label}>
      {!lib && <Skeleton h={height} />}
      <div ref={ref} style={{ position: "absolute", inset: 0 }} />
    </Box>
  );
}
