import { createContext } from "react";
import type { SuperJSONResult } from "superjson";

/** What a server-drawn page carries for the browser that hydrates it (a JSON data block, #flagship-ssr). */
export interface SsrState {
  /** The query cache the page was drawn from (dehydrated, then serialised by superjson for its dates). */
  queries: SuperJSONResult;
  /** Whether it was drawn for a signed-in viewer (the session cookie). */
  signedIn: boolean;
  /** When it was drawn (ms): the browser hydrates with the same moment, so countdowns match. */
  now: number;
  /** The deferred pieces it shows (by module): the browser loads their code before it hydrates. */
  deferred?: string[];
  /** The time zone it was drawn in (the server's; its signature around `now`, lib/render-clock.ts): a chart's time axis is drawn in it. */
  zone?: string;
}

/** What the server notes while it draws a page, for the state above. */
export interface SsrNotes {
  /** The deferred pieces drawn, by module (lib/deferred.tsx). */
  deferred: Set<string>;
}

export const SsrNotesContext = createContext<SsrNotes | null>(null);

export const SSR_STATE_ID = "flagship-ssr";

/** The state of the page the server drew, or null when it served the static shell. */
export function readSsrState(): SsrState | null {
  const text = document.getElementById(SSR_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as SsrState;
  } catch {
    return null;
  }
}
