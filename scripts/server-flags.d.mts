/** The Node.js flags the compiled server runs with (see server-flags.mjs). */
export function serverNodeFlags(env?: NodeJS.ProcessEnv): string[];
/** Where Linux distributions install jemalloc. */
export const JEMALLOC_PATHS: readonly string[];
/** The environment the server runs with beside the caller's: jemalloc preloaded where the machine has it (see server-flags.mjs). */
export function serverEnv(env?: NodeJS.ProcessEnv | Record<string, string | undefined>, exists?: (path: string) => boolean): { LD_PRELOAD?: string; FLAGSHIP_ALLOCATOR?: string; MALLOC_CONF?: string };
/** jemalloc's settings for the server: a password hash's block kept in the ordinary arenas, handed back lazily (see server-flags.mjs). */
export const JEMALLOC_CONF: string;
