import type { Theme } from "@flagship/shared";
import { useSyncExternalStore } from "react";
import { PALETTES } from "../../theme.ts";

/**
 * The theme builder's unsaved preview (shown live to the staff member building it) and this
 * browser's synthwave countdown choice. Saved themes come from the event config.
 */
let preview: Theme | null = null;
const listeners = new Set<() => void>();
const SYNTHWAVE_KEY = "flagship.pref.synthwave";

function emit() {
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setThemePreview(theme: Theme | null): void {
  preview = theme;
  emit();
}
export function useThemePreview(): Theme | null {
  return useSyncExternalStore(subscribe, () => preview, () => null);
}

// Read from storage once, not at every draw of the header's countdown.
let synthwave: boolean | null = null;
function readSynthwave(): boolean {
  return (synthwave ??= localStorage.getItem(SYNTHWAVE_KEY) === "true");
}

export function setSynthwave(on: boolean): void {
  localStorage.setItem(SYNTHWAVE_KEY, on ? "true" : "false");
  synthwave = on;
  emit();
}
export function useSynthwave(): boolean {
  return useSyncExternalStore(subscribe, readSynthwave, () => false);
}

/**
 * The light default and the dark preset, as builder themes. The light default is the built-in
 * look, whose sidebar is the logo's ink in both schemes: a dark sidebar, so the builder's sidebar
 * control says so before any theme is saved.
 */
export const THEME_PRESETS: Record<"light" | "dark", Theme> = {
  light: { ...PALETTES.light, sidebarType: "dark" },
  dark: { ...PALETTES.dark, sidebarType: "dark" },
};
