import { graphStart } from "@flagship/shared";
import type { EChartsCoreOption } from "echarts/core";
import { useMemo } from "react";
import { Chart } from "../../lib/Chart.tsx";

export interface Series {
  name: string;
  points: { points: number; timestamp: string }[];
}

/** Running totals over time, one line per competitor, from the start time (when set). */
export function ScoreGraph({
  series,
  label,
  startTime = null,
  height,
  scheme,
}: {
  series: Series[];
  label: string;
  startTime?: number | null;
  /** The chart's height in pixels (the Chart's default when unset). */
  height?: number;
  /** A scheme the chart keeps whatever the visitor chose (the projector board is always dark). */
  scheme?: "light" | "dark";
}) {
  const option = useMemo<EChartsCoreOption>(() => {
    // Every line runs from the start (at 0) to now (at its total), so a competitor with one solve
    // still draws a line rather than a lone point. The start is the event's start time when it is
    // set, else the first score on the board.
    const times = series.flatMap((s) => s.points.map((p) => Date.parse(p.timestamp)));
    const first = graphStart(times, startTime) ?? Date.now();
    const now = Date.now();
    return {
      tooltip: { trigger: "axis" },
      legend: { type: "scroll", top: 0 },
      grid: { left: 48, right: 24, top: 48, bottom: 32 },
      xAxis: { type: "time", axisLabel: { hideOverlap: true } },
      yAxis: { type: "value", minInterval: 1 },
      series: series.map((s) => {
        let total = 0;
        const data: [number, number][] = [[first, 0]];
        for (const p of s.points) data.push([Date.parse(p.timestamp), (total += p.points)]);
        data.push([Math.max(now, data.at(-1)![0]), total]);
        return { name: s.name, type: "line", step: "end", showSymbol: false, data };
      }),
    };
  }, [series, startTime]);
  return <Chart option={option} label={label} {...(height !== undefined && { height })} {...(scheme && { scheme })} />;
}

/** Groups graph points by competitor, in board order. */
export function toSeries<T extends { points: number; timestamp: string }>(points: T[], nameOf: (p: T) => string, order: string[]): Series[] {
  const by = new Map<string, Series>();
  for (const name of order) by.set(name, { name, points: [] });
  for (const p of points) {
    const name = nameOf(p);
    const s = by.get(name) ?? by.set(name, { name, points: [] }).get(name)!;
    s.points.push(p);
  }
  return [...by.values()].filter((s) => s.points.length > 0);
}
