/**
 * A stored identifier as words, for the few values that have no written name (a plugin's own
 * challenge type, a status the app does not know yet): camelCase, snake_case and kebab-case split
 * into words, the first capitalised: "multipleChoice" is "Multiple choice", "set_config" "Set config".
 * Runs of capitals stay together ("JSON", "SQL") and only the first word gets a capital.
 */
export function spellOut(identifier: string): string {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter((word) => word !== "")
    .map((word) => (/^[A-Z][a-z]/.test(word) ? word.toLowerCase() : word));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
