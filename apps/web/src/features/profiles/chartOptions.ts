import type { CategoryProgress, ScorePoint } from "@flagship/shared";
import type { EChartsCoreOption } from "echarts/core";
import { PALETTES } from "../../theme.ts";
import { timeAxis } from "../leaderboard/time-axis.ts";

type Scheme = "light" | "dark";

/** Text and line colours that read well on either background. */
function ink(scheme: Scheme) {
  return scheme === "dark"
    ? { text: "#d7dee9", muted: "#a9b4c6", grid: "rgba(226,232,240,0.12)" }
    : { text: "#0b1220", muted: "#52607a", grid: "rgba(11,18,32,0.12)" };
}

const tooltip = (scheme: Scheme) => ({
  backgroundColor: scheme === "dark" ? "#1a2335" : "#ffffff",
  borderColor: scheme === "dark" ? "#37445b" : "#d0d7de",
  textStyle: { color: ink(scheme).text },
});

/** Correct versus incorrect attempts as a doughnut. */
export function attemptsPie(correct: number, incorrect: number, labels: { correct: string; incorrect: string }, scheme: Scheme): EChartsCoreOption {
  const palette = PALETTES[scheme];
  return {
    tooltip: { trigger: "item", ...tooltip(scheme) },
    legend: { bottom: 0, textStyle: { color: ink(scheme).text } },
    series: [
      {
        type: "pie",
        radius: ["45%", "70%"],
        center: ["50%", "45%"],
        avoidLabelOverlap: true,
        itemStyle: { borderColor: scheme === "dark" ? "#1a2335" : "#ffffff", borderWidth: 2 },
        label: { color: ink(scheme).text, formatter: "{c}" },
        // A kind of attempt nobody made has no slice, so no label or leader line points at nothing.
        data: [
          { name: labels.correct, value: correct, itemStyle: { color: palette.success } },
          { name: labels.incorrect, value: incorrect, itemStyle: { color: palette.danger } },
        ].filter((slice) => slice.value > 0),
      },
    ],
  };
}

/** Horizontal bars, one per category: solved against the rest of its challenges. */
export function categoryBars(categories: CategoryProgress[], labels: { solved: string; unsolved: string }, scheme: Scheme): EChartsCoreOption {
  const palette = PALETTES[scheme];
  const c = ink(scheme);
  return {
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, ...tooltip(scheme) },
    legend: { bottom: 0, textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 8, bottom: 36, containLabel: true },
    xAxis: { type: "value", minInterval: 1, axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid } } },
    yAxis: { type: "category", inverse: true, data: categories.map((x) => x.name), axisLabel: { color: c.text, width: 120, overflow: "truncate" } },
    series: [
      { name: labels.solved, type: "bar", stack: "total", data: categories.map((x) => x.solved), itemStyle: { color: palette.success }, barMaxWidth: 22 },
      {
        name: labels.unsolved,
        type: "bar",
        stack: "total",
        data: categories.map((x) => Math.max(x.total - x.solved, 0)),
        itemStyle: { color: scheme === "dark" ? "#37445b" : "#d0d7de" },
        barMaxWidth: 22,
      },
    ],
  };
}

/** A chart at most this wide is in a phone's card: too narrow for names drawn around a pie. */
export const NARROW_CHART = { maxWidth: 480 };

/**
 * Points per category as a pie (categories with no points left out). Wide, the slices are named
 * around it with a legend below; in a narrow chart names around it run off its edges, so the pie
 * moves left and a legend beside it names the slices instead (the tooltip keeps the points).
 */
export function categoryPie(categories: CategoryProgress[], scheme: Scheme): EChartsCoreOption {
  // Each property the narrow layout changes is restored by the wide one, as a chart resized from
  // narrow to wide (a phone turned sideways) keeps what the narrow layout set otherwise.
  const wide = {
    legend: { orient: "horizontal", left: "center", top: "auto", bottom: 0, textStyle: { width: 200 } },
    series: [{ radius: ["0%", "65%"], center: ["50%", "45%"], label: { show: true }, labelLine: { show: true } }],
  };
  const narrow = {
    legend: { orient: "vertical", left: "54%", top: "middle", bottom: "auto", textStyle: { width: 100 } },
    series: [{ radius: ["0%", "58%"], center: ["27%", "50%"], label: { show: false }, labelLine: { show: false } }],
  };
  return {
    tooltip: { trigger: "item", ...tooltip(scheme) },
    legend: { ...wide.legend, type: "scroll", textStyle: { ...wide.legend.textStyle, color: ink(scheme).text, overflow: "truncate" }, tooltip: { show: true } },
    series: [
      {
        ...wide.series[0],
        type: "pie",
        itemStyle: { borderColor: scheme === "dark" ? "#1a2335" : "#ffffff", borderWidth: 2 },
        label: { ...wide.series[0]!.label, color: ink(scheme).text },
        data: categories.filter((x) => x.points > 0).map((x) => ({ name: x.name, value: x.points })),
      },
    ],
    media: [{ option: wide }, { query: NARROW_CHART, option: narrow }],
  };
}

/**
 * The running score as a stepped line over the event, on the leaderboard graph's time axis: from
 * the span's start (at 0) to its end (at the total), however few the solves.
 */
export function scoreLine(points: ScorePoint[], name: string, scheme: Scheme, span: { start: number; end: number } | null = null): EChartsCoreOption {
  const palette = PALETTES[scheme];
  const c = ink(scheme);
  const data: [number, number][] = points.map((p) => [Date.parse(p.timestamp), p.points]);
  const times = data.map(([t]) => t);
  const range = span ?? { start: Math.min(...times), end: Math.max(...times) };
  if (span) {
    data.unshift([span.start, 0]);
    data.push([Math.max(span.end, data.at(-1)![0]), data.at(-1)![1]]);
  }
  return {
    tooltip: { trigger: "axis", ...tooltip(scheme) },
    grid: { left: 8, right: 24, top: 16, bottom: 8, containLabel: true },
    xAxis: timeAxis(range, { color: c.muted }, { lineStyle: { color: c.grid } }),
    yAxis: { type: "value", minInterval: 1, axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid } } },
    series: [
      {
        name,
        type: "line",
        step: "end",
        showSymbol: points.length < 40,
        lineStyle: { width: 2, color: palette.primary },
        itemStyle: { color: palette.primary },
        areaStyle: { color: palette.primary, opacity: 0.12 },
        data,
      },
    ],
  };
}

/** Each member's share of the team's points. */
export function memberPie(members: { username: string; points: number }[], scheme: Scheme): EChartsCoreOption {
  return categoryPie(
    members.map((m, i) => ({ id: i, name: m.username, points: m.points, solved: 0, total: 0 })),
    scheme,
  );
}
