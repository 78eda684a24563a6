const pad = (n: number) => String(n).padStart(2, "0");

/** The projector's clock: hh:mm:ss left, days first when there are any ("2 d 04:05:06"). */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const days = Math.floor(total / 86_400);
  const time = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return days > 0 ? `${days} d ${time}` : time;
}

/** Row heights of the projector board, in CSS pixels: a few teams do not stretch, many stay legible. */
export const MIN_ROW = 56;
export const MAX_ROW = 96;

/** The height of each of `count` rows sharing `room` pixels; more rows than fit at MIN_ROW scroll. */
export function rowHeight(room: number, count: number): number {
  if (count <= 0 || room <= 0) return MAX_ROW;
  return Math.min(MAX_ROW, Math.max(MIN_ROW, Math.floor(room / count)));
}
