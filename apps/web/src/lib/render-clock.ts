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

/** This runtime's time zone (the server's, or the reader's in the browser). */
export function ownTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

let drawnTimeZone: string | null = null;

/** The time zone the page the browser is about to hydrate was drawn in (from the page's state). */
export function setHydrationTimeZone(zone: string | null): void {
  drawnTimeZone = zone;
}

/** Whether the server drew the page in the reader's time zone (its times then read as the browser's would). */
export function drawnInReadersZone(): boolean {
  return drawnTimeZone !== null && drawnTimeZone === ownTimeZone();
}
