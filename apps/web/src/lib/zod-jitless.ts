import { config } from "zod/v4/core";

// Zod compiles object schemas with new Function unless told not to, which the Content-Security-
// Policy (script-src 'self', no 'unsafe-eval') refuses. It decides when a schema is built, so
// this module is imported before anything that builds one.
config({ jitless: true });
