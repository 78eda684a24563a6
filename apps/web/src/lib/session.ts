import { useSyncExternalStore } from "react";

const TOKEN_KEY = "flagship.token";
const listeners = new Set<() => void>();

/** The API token kept in local storage, shared by the tRPC client and the websocket. */
export const session = {
  get token(): string | null {
    return localStorage.getItem(TOKEN_KEY);
  },
  setToken(token: string | null): void {
    if (token === null) localStorage.removeItem(TOKEN_KEY);
    else localStorage.setItem(TOKEN_KEY, token);
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

window.addEventListener("storage", (event) => {
  if (event.key === TOKEN_KEY) for (const listener of listeners) listener();
});

export function useToken(): string | null {
  return useSyncExternalStore(session.subscribe, () => session.token);
}
