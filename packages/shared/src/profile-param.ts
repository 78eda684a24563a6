// Kept apart from the profile schemas (and zod), so the profile and team pages do not load zod.

/** A profile or team address segment: 'me' means the caller's own, anything else must be an id. */
export function parseProfileParam(value: string): "me" | number | null {
  if (value === "me") return "me";
  if (!/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}
