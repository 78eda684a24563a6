import { graphSpan } from "@flagship/shared";
import type { EChartsCoreOption } from "echarts/core";
import { Group, Stack, UnstyledButton, useComputedColorScheme } from "@mantine/core";
import { useContext, useMemo, useState } from "react";
import { Chart, SERIES_COLOURS } from "../../lib/Chart.tsx";
import { ServerRenderClock } from "../../lib/render-clock.ts";
import { type SeriesStyle, seriesStyle } from "../../lib/series-style.ts";
import "./leaderboard.css";
import { timeAxis } from "./time-axis.ts";

export interface Series {
  name: string;
  points: { points: number; timestamp: string }[];
}

/** Axis and legend type: the page's own, or large enough to read from the back of a room. */
const TYPE = {
  page: { axis: 12, legend: "sm" },
  projector: { axis: 22, legend: 24 },
} as const;

/**
 * Running totals over time, one line per competitor, from the start time (when set). The legend
 * sits under the chart as a list of toggles that wraps to as many lines as it needs (a phone
 * shows every name, not pages of them); a competitor keeps its colour when others are hidden.
 */
export function ScoreGraph({
  series,
  label,
  startTime = null,
  endTime = null,
  height,
  scheme: forced,
  size = "page",
}: {
  series: Series[];
  label: string;
  startTime?: number | null;
  /** The event's end (seconds): once it is over, the graph stops there. */
  endTime?: number | null;
  /** The chart's height in pixels (the Chart's default when unset). */
  height?: number;
  /** A scheme the chart keeps whatever the visitor chose (the projector board is always dark). */
  scheme?: "light" | "dark";
  /** "projector": axis labels and legend sized for a projector. */
  size?: keyof typeof TYPE;
}) {
  const computed = useComputedColorScheme("light");
  const serverClock = useContext(ServerRenderClock);
  const colours = SERIES_COLOURS[forced ?? computed];
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const type = TYPE[size];
  const option = useMemo<EChartsCoreOption>(() => {
    // Every line runs from the start (at 0) to now (at its total), so a competitor with one solve
    // still draws a line rather than a lone point. The axis spans the event (graphSpan): its start
    // time when set, else the first score on the board, to now or the event's end.
    const times = series.flatMap((s) => s.points.map((p) => Date.parse(p.timestamp)));
    // Drawn on the server, up to the page's moment: the same graph in each of the page's draws,
    // which the server then draws once (lib/echarts/server-draw.ts).
    const now = serverClock ? serverClock.now : Date.now();
    const span = graphSpan(times, startTime, endTime, now) ?? { start: now, end: now };
    const axisLabel = { fontSize: type.axis };
    return {
      tooltip: { trigger: "axis", textStyle: { fontSize: type.axis } },
      grid: { left: 16, right: 24, top: 16, bottom: 8, containLabel: true },
      xAxis: timeAxis(span, axisLabel),
      yAxis: { type: "value", minInterval: 1, axisLabel },
      series: series.flatMap((s, i) => {
        if (hidden.has(s.name)) return [];
        let total = 0;
        const data: [number, number][] = [[span.start, 0]];
        for (const p of s.points) data.push([Date.parse(p.timestamp), (total += p.points)]);
        data.push([Math.max(span.end, data.at(-1)![0]), total]);
        const { color, dash } = seriesStyle(i, colours);
        return [{ name: s.name, type: "line", step: "end", showSymbol: false, data, lineStyle: { color, type: dash, width: size === "projector" ? 3 : 2 }, itemStyle: { color } }];
      }),
    };
  }, [series, startTime, endTime, hidden, colours, type, size, serverClock]);
  // What the graph shows (its option also holds the moment it was drawn, which moves on every draw).
  const dataKey = useMemo(() => JSON.stringify([series, [...hidden], startTime, endTime, size]), [series, hidden, startTime, endTime, size]);
  const toggle = (name: string) =>
    setHidden((before) => {
      const next = new Set(before);
      if (!next.delete(name)) next.add(name);
      return next;
    });
  return (
    <Stack gap="xs">
      <Chart option={option} dataKey={dataKey} label={label} {...(height !== undefined && { height })} {...(forced && { scheme: forced })} />
      <Group component="ul" gap={size === "projector" ? "md" : "xs"} className="graph-legend" data-testid="graph-legend">
        {series.map((s, i) => (
          <li key={s.name}>
            <UnstyledButton className="graph-legend-item" aria-pressed={!hidden.has(s.name)} onClick={() => toggle(s.name)} fz={type.legend}>
              <span className="graph-legend-swatch" style={swatch(seriesStyle(i, colours))} aria-hidden />
              {s.name}
            </UnstyledButton>
          </li>
        ))}
      </Group>
    </Stack>
  );
}

/** A legend swatch drawn like its line: the colour, and the dash where colours repeat. */
function swatch({ color, dash }: SeriesStyle) {
  return { borderTop: `0.3em ${dash} ${color}` };
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
