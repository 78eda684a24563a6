import { localStorageColorSchemeManager, type MantineColorSchemeManager } from "@mantine/core";
import { createContext } from "react";
import { readCookie, writeCookie } from "./cookies.ts";

export type ColorSchemeChoice = "light" | "dark" | "auto";

const KEY = "flagship.color-scheme";
/** The same choice as a cookie, so that the server draws a page in the viewer's scheme. */
export const COLOR_SCHEME_COOKIE = "flagship.color-scheme";

/** The viewer's scheme, as the server knows it from the cookie; only set while the server draws a page. */
export const ServerColorScheme = createContext<ColorSchemeChoice | null>(null);

export function isColorSchemeChoice(value: unknown): value is ColorSchemeChoice {
  return value === "light" || value === "dark" || value === "auto";
}

const YEAR = 31_536_000;

/** The browser's manager: local storage as before, mirrored to the cookie the server reads. */
export function browserColorSchemeManager(): MantineColorSchemeManager {
  const stored = localStorageColorSchemeManager({ key: KEY });
  return {
    ...stored,
    set(value) {
      stored.set(value);
      writeCookie(COLOR_SCHEME_COOKIE, value, YEAR);
    },
    clear() {
      stored.clear();
      writeCookie(COLOR_SCHEME_COOKIE, null, YEAR);
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
  const wanted = isColorSchemeChoice(value) ? value : null;
  if (readCookie(COLOR_SCHEME_COOKIE) === wanted) return true;
  writeCookie(COLOR_SCHEME_COOKIE, wanted, YEAR);
  return false;
}
