/** How a chart series is drawn: its colour and its line's pattern. */
export interface SeriesStyle {
  color: string;
  dash: "solid" | "dashed" | "dotted";
}

const DASHES: SeriesStyle["dash"][] = ["solid", "dashed", "dotted"];

/**
 * The i-th series' style: the palette's colours in turn, then the same colours again with a dashed
 * line, then dotted. A top ten on an eight-colour palette draws ten different lines (the ninth and
 * tenth dashed), told apart by pattern where their colours repeat, which also helps colour-blind
 * readers and greyscale print.
 */
export function seriesStyle(i: number, palette: readonly string[]): SeriesStyle {
  const round = Math.floor(i / palette.length);
  return { color: palette[i % palette.length]!, dash: DASHES[round % DASHES.length]! };
}
