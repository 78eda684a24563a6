import { createContext, useContext, useSyncExternalStore } from "react";

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

function writeCookie(token: string | null): void {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie =
    token === null ? `${SESSION_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}` : `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${COOKIE_SECONDS}; SameSite=Lax${secure}`;
}

/** The session cookie's value in this browser, or null. */
export function cookieToken(): string | null {
  for (const part of document.cookie.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join("=")) || null;
  }
  return null;
}

/** The API token kept in local storage, shared by the tRPC client and the websocket. */
export const session = {
  get token(): string | null {
    return inBrowser ? localStorage.getItem(TOKEN_KEY) : null;
  },
  setToken(token: string | null): void {
    if (token === null) localStorage.removeItem(TOKEN_KEY);
    else localStorage.setItem(TOKEN_KEY, token);
    writeCookie(token);
    for (const listener of listeners) listener();
  },
  /** Makes the cookie say what local storage says (a token stored before the cookie existed, or one that outlived it). */
  syncCookie(): void {
    const token = session.token;
    if (cookieToken() !== token) writeCookie(token);
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

export function useToken(): string | null {
  const server = useContext(ServerSessionContext);
  return useSyncExternalStore(session.subscribe, () => session.token, () => (server ? server.token : session.token));
}
