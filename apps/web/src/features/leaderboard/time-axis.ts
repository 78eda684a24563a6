const pad = (n: number) => String(n).padStart(2, "0");

const DAY = 86_400_000;

/**
 * A time axis tick's label, in the reader's time zone: the day ("3 Feb") at midnight on a graph
 * spanning days, else the time ("10:30"), with seconds only on a graph a few minutes long. Never
 * milliseconds.
 */
export function timeTickLabel(ms: number, spanMs: number): string {
  const d = new Date(ms);
  const midnight = d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0;
  if (midnight && spanMs >= DAY) return d.toLocaleDateString(undefined, { day: "numeric", month: "short" });
  const time = clockTime(ms);
  return spanMs < 10 * 60_000 && d.getSeconds() !== 0 ? `${time}:${pad(d.getSeconds())}` : time;
}

/**
 * A time of day as the graphs' axis writes it, 24-hour ("14:05") in the reader's time zone: the
 * projector's first bloods, clock and freeze time sit beside that axis and read the same way.
 */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A moment in a tooltip: the day and the time to the second. */
export function timeTooltipLabel(ms: number): string {
  const d = new Date(ms);
  return `${d.toLocaleDateString(undefined, { day: "numeric", month: "short" })} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * The score graphs' time axis, shared by the leaderboard, profiles and team pages: it spans the
 * event (graphSpan) and labels ticks with timeTickLabel, no tick closer than a second.
 */
export function timeAxis(span: { start: number; end: number }, axisLabel: Record<string, unknown> = {}, axisLine?: Record<string, unknown>) {
  const length = span.end - span.start;
  return {
    type: "time",
    min: span.start,
    max: span.end,
    minInterval: 1000,
    axisLabel: { hideOverlap: true, ...axisLabel, formatter: (value: number) => timeTickLabel(value, length) },
    axisPointer: { label: { formatter: ({ value }: { value: number }) => timeTooltipLabel(value) } },
    ...(axisLine && { axisLine }),
  };
}
