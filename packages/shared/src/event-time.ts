/**
 * The staff date inputs: 'yyyy-MM-dd H:mm' in the browser's local time, stored as seconds since
 * the epoch. An empty text means "not set" (null).
 */
export const EVENT_TIME_FORMAT = "yyyy-MM-dd H:mm";

const PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2})$/;

/** Seconds for a valid text, null for an empty one, undefined when it is not a real date and time. */
export function parseEventTime(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const match = PATTERN.exec(trimmed);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute);
  // Rolled-over parts (31 February, 25:00) do not survive the round trip.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day || date.getHours() !== hour || date.getMinutes() !== minute) {
    return undefined;
  }
  return Math.floor(date.getTime() / 1000);
}

/** The text of a stored time ("" for null). */
export function formatEventTime(seconds: number | null): string {
  if (seconds === null) return "";
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${d.getHours()}:${pad(d.getMinutes())}`;
}
