/**
 * The specs' local settings toggles (showDev, accDeletion, ...), kept in this browser only under
 * `flagship.pref.<name>` as "true" or "false".
 */
export function localPreference(name: string, fallback: boolean): boolean {
  const value = localStorage.getItem(`flagship.pref.${name}`);
  return value === null ? fallback : value === "true";
}
