/** The Node.js flags the compiled server runs with (see server-flags.mjs). */
export function serverNodeFlags(env?: NodeJS.ProcessEnv): string[];
