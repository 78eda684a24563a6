import { createContext, useContext, useSyncExternalStore } from "react";

/**
 * The moment a page is drawn, shared by the server's draw and the browser's hydration of it, so
 * that both draw the same countdowns; after hydration the browser's own clock takes over.
 */
export const ServerRenderClock = createContext<{ now: number } | null>(null);

let hydrationNow: number | null = null;

/** The server's moment of drawing the page the browser is about to hydrate (from the page's state). */
export function setHydrationNow(now: number | null): void {
  hydrationNow = now;
}

const subscribe = () => () => {};

/**
 * False while the server draws a page and while the browser hydrates it, true after (and in every
 * render the browser draws on its own). What depends on the reader's time zone is drawn once true.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/** Now, in ms, as the page is drawn: the server's moment while it is drawn there or hydrated, else the browser's clock. */
export function useRenderNow(): number {
  const server = useContext(ServerRenderClock);
  const hydrated = useHydrated();
  if (server) return server.now;
  if (!hydrated && hydrationNow !== null) return hydrationNow;
  return Date.now();
}

const DAY_MS = 86_400_000;

/**
 * This runtime's time zone (the server's, or the reader's in the browser) as it reads times: its
 * offset from UTC on each day of the year either side of `around`, written as the offset at the
 * first day and each change after ("-60@-365 0@-218 -60@-28"). Two zones with the same signature
 * read every time of those two years alike (a chart's time axis is the same in both). Read from the
 * Date's offsets, not from Intl: the first Intl.DateTimeFormat a page makes costs tens of
 * milliseconds of its start on a slow phone, and nothing else on a drawn page needs one.
 */
export function zoneSignature(around: number): string {
  const parts: string[] = [];
  let last: number | null = null;
  for (let day = -365; day <= 365; day++) {
    const offset = new Date(around + day * DAY_MS).getTimezoneOffset();
    if (offset !== last) parts.push(`${offset}@${day}`);
    last = offset;
  }
  return parts.join(" ");
}

let drawnZone: { signature: string; around: number } | null = null;

/** The zone the page the browser is about to hydrate was drawn in (from the page's state: its signature around the page's moment). */
export function setHydrationZone(signature: string | null, around: number): void {
  drawnZone = signature === null ? null : { signature, around };
}

/** Whether the server drew the page in a zone that reads times as the reader's does (its times then read as the browser's would). */
export function drawnInReadersZone(): boolean {
  return drawnZone !== null && drawnZone.signature === zoneSignature(drawnZone.around);
}
