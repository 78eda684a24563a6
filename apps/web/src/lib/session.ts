import { createContext, useContext, useSyncExternalStore } from "react";
import { readCookie, writeCookie } from "./cookies.ts";

const TOKEN_KEY = "flagship.token";
/**
 * The same token as a cookie, read only when the server renders a page (the API never accepts it:
 * calls carry the token in their Authorization header). It lets the server draw a signed-in
 * player's page with their data before any script runs.
 */
export const SESSION_COOKIE = "flagship.session";
const COOKIE_SECONDS = 30 * 24 * 3600;
const listeners = new Set<() => void>();
const inBrowser = typeof window !== "undefined";

/** The session cookie's value in this browser, or null. */
export function cookieToken(): string | null {
  return readCookie(SESSION_COOKIE);
}

/** The API token kept in local storage, shared by the tRPC client and the websocket. */
export const session = {
  get token(): string | null {
    return inBrowser ? localStorage.getItem(TOKEN_KEY) : null;
  },
  setToken(token: string | null): void {
    if (token === null) localStorage.removeItem(TOKEN_KEY);
    else localStorage.setItem(TOKEN_KEY, token);
    writeCookie(SESSION_COOKIE, token, COOKIE_SECONDS);
    for (const listener of listeners) listener();
  },
  /** Makes the cookie say what local storage says (a token stored before the cookie existed, or one that outlived it). */
  syncCookie(): void {
    const token = session.token;
    if (cookieToken() !== token) writeCookie(SESSION_COOKIE, token, COOKIE_SECONDS);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

if (inBrowser) {
  window.addEventListener("storage", (event) => {
    if (event.key === TOKEN_KEY) for (const listener of listeners) listener();
  });
}

/**
 * The token a server render draws the page for (from the request's cookie); absent in the browser.
 * Hydration reads the browser's own token, which the cookie mirrors.
 */
export const ServerSessionContext = createContext<{ token: string | null } | null>(null);

/** The token the page being hydrated was drawn for (the browser's as hydration began); undefined when not hydrating one. */
let drawnToken: string | null | undefined;

/**
 * Notes the token the server drew the page for, as hydration begins. Hydration works through the
 * page in slices, and the browser may store another token meanwhile (a sign-in in another tab):
 * the page hydrates as it was drawn, then follows the new token.
 */
export function setDrawnToken(token: string | null): void {
  drawnToken = token;
}

export function useToken(): string | null {
  const server = useContext(ServerSessionContext);
  return useSyncExternalStore(session.subscribe, () => session.token, () => (server ? server.token : drawnToken !== undefined ? drawnToken : session.token));
}
