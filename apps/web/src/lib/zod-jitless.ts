// Zod compiles object schemas with new Function unless told not to, which the Content-Security-
// Policy (script-src 'self', no 'unsafe-eval') refuses. It decides when a schema is built, so
// this module is imported before anything that builds one. Zod keeps its settings in one object
// on globalThis (shared by every copy of zod); setting the switch there, rather than through
// zod's config(), keeps zod itself out of the first load of pages that build no schema.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });
