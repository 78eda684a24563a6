import { localStorageColorSchemeManager, type MantineColorSchemeManager } from "@mantine/core";
import { createContext } from "react";

export type ColorSchemeChoice = "light" | "dark" | "auto";

const KEY = "flagship.color-scheme";
/** The same choice as a cookie, so that the server draws a page in the viewer's scheme. */
export const COLOR_SCHEME_COOKIE = "flagship.color-scheme";

/** The viewer's scheme, as the server knows it from the cookie; only set while the server draws a page. */
export const ServerColorScheme = createContext<ColorSchemeChoice | null>(null);

export function isColorSchemeChoice(value: unknown): value is ColorSchemeChoice {
  return value === "light" || value === "dark" || value === "auto";
}

function writeCookie(value: ColorSchemeChoice | null): void {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = value === null ? `${COLOR_SCHEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}` : `${COLOR_SCHEME_COOKIE}=${value}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** The browser's manager: local storage as before, mirrored to the cookie the server reads. */
export function browserColorSchemeManager(): MantineColorSchemeManager {
  const stored = localStorageColorSchemeManager({ key: KEY });
  return {
    ...stored,
    set(value) {
      stored.set(value);
      writeCookie(value);
    },
    clear() {
      stored.clear();
      writeCookie(null);
    },
  };
}

/** The server's manager for one page: the viewer's cookie, never written. */
export function serverColorSchemeManager(choice: ColorSchemeChoice | null): MantineColorSchemeManager {
  return {
    get: (defaultValue) => choice ?? defaultValue,
    set: () => {},
    subscribe: () => {},
    unsubscribe: () => {},
    clear: () => {},
  };
}

/** Brings the cookie in line with what local storage holds (a choice made before the cookie existed); says whether it already was. */
export function syncColorSchemeCookie(): boolean {
  const value = localStorage.getItem(KEY);
  const cookie = document.cookie.split(";").find((part) => part.trim().startsWith(`${COLOR_SCHEME_COOKIE}=`));
  const current = cookie ? cookie.trim().slice(COLOR_SCHEME_COOKIE.length + 1) : null;
  const wanted = isColorSchemeChoice(value) ? value : null;
  if (current === wanted) return true;
  writeCookie(wanted);
  return false;
}
