import { createContext } from "react";
import { readCookie, writeCookie } from "../../lib/cookies.ts";

/** The announcement bars closed on this browser: in local storage, the latest also in a cookie the server reads. */
export const HIDDEN_KEY = "flagship.hidden-announcements";
export const HIDDEN_COOKIE = "flagship.hidden-announcements";
/** The bar shows the latest announcement: the latest few closed are all the server needs. */
const COOKIE_IDS = 20;

/** The closed bars the server knows from the cookie, while it draws a page. */
export const ServerHiddenAnnouncements = createContext<number[] | null>(null);

export function parseHiddenCookie(value: string | null | undefined): number[] {
  return (value ?? "")
    .split(".")
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

export function writeHiddenCookie(ids: number[]): void {
  writeCookie(HIDDEN_COOKIE, ids.slice(-COOKIE_IDS).join("."), 31_536_000);
}

/** Brings the cookie in line with local storage (bars closed before the cookie existed); says whether it already was. */
export function syncHiddenCookie(): boolean {
  let ids: number[] = [];
  try {
    const stored = JSON.parse(localStorage.getItem(HIDDEN_KEY) ?? "[]") as unknown;
    if (Array.isArray(stored)) ids = stored.filter((id): id is number => typeof id === "number");
  } catch {
    ids = [];
  }
  const wanted = ids.slice(-COOKIE_IDS).join(".");
  if ((readCookie(HIDDEN_COOKIE) ?? "") === wanted) return true;
  writeHiddenCookie(ids);
  return false;
}
