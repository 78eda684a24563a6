import { LOGO_MAX_BYTES, LOGO_TYPES } from "@flagship/shared";
import { useSyncExternalStore } from "react";

/**
 * The event's logo is served at /logo (revalidated on every page load). After staff change it,
 * the address gains a version so this browser's images reload at once.
 */
let version = 0;
const listeners = new Set<() => void>();

export function logoChanged(): void {
  version += 1;
  for (const listener of listeners) listener();
}

export function useLogoSrc(): string {
  const v = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  return v === 0 ? "/logo" : `/logo?v=${v}`;
}

export type LogoProblem = "type" | "size";

/** Why a file cannot be the logo, or null when it can. */
export function logoProblem(file: { type: string; size: number }): LogoProblem | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return "type";
  if (file.size > LOGO_MAX_BYTES) return "size";
  return null;
}

/** The file as the data URL the `logo` setting holds. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}
