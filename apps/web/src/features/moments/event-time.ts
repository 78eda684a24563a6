/** A moment of the event (seconds) as a date and time, in the reader's zone or in `timeZone`, its zone named. */
export function formatEventTime(language: string, seconds: number, timeZone?: string): string {
  return new Intl.DateTimeFormat(language, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone && { timeZone }),
  }).format(new Date(seconds * 1000));
}

/** Whether the reader's own zone shows the event's times the same as the event's zone does. */
export function sameZone(seconds: number, timeZone: string): boolean {
  const at = new Date(seconds * 1000);
  const offset = (zone?: string) => new Intl.DateTimeFormat("en", { timeZoneName: "longOffset", ...(zone && { timeZone: zone }) }).format(at).replace(/^.* /, "");
  return offset() === offset(timeZone);
}
