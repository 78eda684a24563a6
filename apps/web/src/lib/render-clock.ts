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

/** The server's moment of drawing, for a page the server draws or the browser hydrates; null otherwise. */
function drawnNow(server: { now: number } | null): number | null {
  return server?.now ?? hydrationNow;
}

// One clock for the whole page: it ticks every second while anything reads it, and a reader
// re-renders only when what it reads of the time changes (the countdown's words, the
// event's phase at the start and the end), not with every tick as the page around it would.
const clockListeners = new Set<() => void>();
let clockTimer: ReturnType<typeof setInterval> | undefined;
let clockMs = Date.now();

function subscribeClock(listener: () => void): () => void {
  clockListeners.add(listener);
  if (clockTimer === undefined) {
    clockMs = Date.now();
    clockTimer = setInterval(() => {
      clockMs = Date.now();
      for (const l of clockListeners) l();
    }, 1000);
  }
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0) {
      clearInterval(clockTimer);
      clockTimer = undefined;
    }
  };
}

/** The clock's time: the last tick's while it ticks, else now (read anew at most once a second, so two reads in one render agree). */
function readClock(): number {
  if (clockTimer === undefined && Date.now() - clockMs >= 1000) clockMs = Date.now();
  return clockMs;
}

/**
 * What `select` makes of now (ms): the server's moment while the page is drawn there or hydrated,
 * then the browser's clock, read every second. The component re-renders only when the selected
 * value changes (compared with Object.is: select a string or a number, not a new object).
 */
export function useClock<T>(select: (nowMs: number) => T): T {
  const server = useContext(ServerRenderClock);
  return useSyncExternalStore(
    subscribeClock,
    () => select(server ? server.now : readClock()),
    () => select(drawnNow(server) ?? readClock()),
  );
}

/**
 * True in a render that draws on the server or hydrates the server's HTML, false in the browser's
 * own renders. Unlike useHydrated, reading it does not draw the component again once hydrated: it
 * is for what a component decides once, as it first draws (a useState's initial value). A component
 * drawn again after hydration above a part that has not hydrated yet makes React hydrate that part
 * at once, in one long task, instead of in the slices it works through otherwise.
 */
export function useHydratingNow(): boolean {
  let hydrating = false;
  // React reads the server's snapshot only on the server and while hydrating: that read is the answer.
  useSyncExternalStore(
    subscribe,
    () => 0,
    () => {
      hydrating = true;
      return 0;
    },
  );
  return hydrating;
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
