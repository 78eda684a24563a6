import { useSyncExternalStore } from "react";

/**
 * The event's logo is served at /logo (revalidated on every page load). After staff change it,
 * the address gains a version so this browser's images reload at once. Kept apart from the logo
 * picker's checks: the header reads this on every page, and must not pull in the shared schemas.
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
    () => 0,
  );
  return v === 0 ? "/logo" : `/logo?v=${v}`;
}
