import { useSyncExternalStore } from "react";
import { useAppData } from "./useAppData.ts";

const KEY = "flagship.view-as-player";
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) for (const listener of listeners) listener();
  });
}

/**
 * Staff's "view as a player" switch, kept on this browser. Only the web app's drawing follows it:
 * the server still answers as staff, so a preview hides what a player would not see, nothing more.
 */
export function setViewAsPlayer(on: boolean): void {
  if (on) localStorage.setItem(KEY, "1");
  else localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

/** Whether the signed-in staff member is previewing the event as a player. */
export function useViewAsPlayer(): boolean {
  const { me } = useAppData();
  const on = useSyncExternalStore(subscribe, read, () => false);
  return on && me?.isStaff === true;
}

/** Whether to draw the staff's view: staff, and not previewing as a player. */
export function useStaffView(): boolean {
  const { me } = useAppData();
  const preview = useViewAsPlayer();
  return me?.isStaff === true && !preview;
}
