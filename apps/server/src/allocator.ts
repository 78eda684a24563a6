/**
 * npm start preloads jemalloc into the server (scripts/server-flags.mjs, `serverEnv`) and says so
 * with FLAGSHIP_ALLOCATOR. The preload is the server's alone: taken out of its environment at
 * start, the processes it starts (the embedded PostgreSQL, workers) keep their own allocator. An
 * LD_PRELOAD the operator set is left as it is.
 */
export function keepAllocatorToSelf(env: Record<string, string | undefined> = process.env): void {
  if (env.FLAGSHIP_ALLOCATOR !== "jemalloc") return;
  delete env.LD_PRELOAD;
  delete env.FLAGSHIP_ALLOCATOR;
}
