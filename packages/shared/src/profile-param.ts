// Kept apart from the profile schemas (and zod), so the profile and team pages do not load zod.

/** A profile or team named in an address: the caller's own ('me'), by id, or by name. */
export type ProfileRef = "me" | number | { name: string };

/**
 * A profile or team address segment: 'me' means the caller's own, a positive number is an id, and
 * anything else is a username or team name (so a name made only of digits is reached by its id's
 * page, never by name). Null when there is nothing to look up.
 */
export function parseProfileParam(value: string): ProfileRef | null {
  if (value === "me") return "me";
  if (/^\d{1,9}$/.test(value) && Number(value) > 0) return Number(value);
  const name = value.trim();
  return name.length > 0 && name.length <= 100 ? { name } : null;
}
