// How the compiled server is started (npm start, and the benchmark, which measures the server as
// npm start runs it): its Node.js flags and its environment.
import { existsSync } from "node:fs";

// --max-old-space-size: V8 sizes its heap by this limit, and with its default (gigabytes) a busy
// server lets garbage pile up to hundreds of MiB before collecting. 256 MiB holds every bounded
// cache of a large event with room to spare and keeps a copy's resident memory near 250 MiB under
// load. NODE_OPTIONS with its own --max-old-space-size wins.
//
// No --enable-source-maps: with it Node keeps the source maps of everything it loads. Two quick
// runs of the mixed benchmark workload showed a lower peak without it (268 against 298 MiB), but a
// full run did not confirm it (docs/performance.md, Memory). The bundle is not minified, so stack
// traces still name the functions; set NODE_OPTIONS=--enable-source-maps for TypeScript file and
// line numbers in them.
//
// --no-allocation-site-pretenuring: V8 watches where objects are made, and when many made at one
// place outlive a young-generation collection it has that place make them in the old generation
// from then on, where only a full mark-compact frees them. Under a stream of requests that guess
// goes wrong: objects of a request still in flight during a collection (a zod parse, a reply) are
// taken for long-lived, and every later request's garbage goes straight to the old generation. A
// copy answering board pages ran a full mark-compact every half second (68 in 40 s), each holding
// every request up for 10 to 35 ms; without pretenuring it ran 5, and the board's p99 at 15000
// requests a second fell from 37 to 2.6 ms (docs/performance.md, Memory). A V8 flag, so it goes on
// the command line: NODE_OPTIONS does not take it.
export function serverNodeFlags(env = process.env) {
  const own = /--max-old-space-size/.test(env.NODE_OPTIONS ?? "");
  return [...(own ? [] : ["--max-old-space-size=256"]), "--no-allocation-site-pretenuring"];
}

/** Where Linux distributions install jemalloc (Debian's libjemalloc2, which redis-server brings). */
export const JEMALLOC_PATHS = [
  "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
  "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
  "/usr/lib64/libjemalloc.so.2",
  "/usr/lib/libjemalloc.so.2",
];

/**
 * The environment the server runs with, beside the caller's: jemalloc as its memory allocator when
 * the machine has it (docs/performance.md, Memory). Under the mixed benchmark workload glibc's
 * allocator kept about 100 MiB of a copy in its per-thread arenas, freed but never handed back,
 * and a copy's resident memory only grew; jemalloc hands freed pages back within seconds. The
 * server takes LD_PRELOAD out of its own environment when it starts (FLAGSHIP_ALLOCATOR says it
 * was set here), so the processes it starts (the embedded PostgreSQL) keep their own allocator.
 *
 * Left alone when the operator preloads something of their own, or with FLAGSHIP_ALLOCATOR=system.
 * An operator's own MALLOC_CONF replaces JEMALLOC_CONF.
 */
export function serverEnv(env = process.env, exists = existsSync) {
  if (env.LD_PRELOAD || env.FLAGSHIP_ALLOCATOR === "system") return {};
  const library = JEMALLOC_PATHS.find((candidate) => exists(candidate));
  return library ? { LD_PRELOAD: library, FLAGSHIP_ALLOCATOR: "jemalloc", MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF } : {};
}

/**
 * jemalloc's settings for the server. Each password hash (argon2id, 19 MiB) allocates and frees one
 * 19 MiB block. With jemalloc's defaults that block went to its arena for large blocks, which hands
 * freed memory back at once, and the next hash faulted all 19 MiB in again: a login cost 118 ms
 * instead of about 34 (in the login wave, 8 logins a second instead of 39). `oversize_threshold:0`
 * keeps large blocks in the ordinary arenas, whose freed pages are handed back over seconds
 * (dirty_decay_ms, 10 s), so a hash's block is usually still there for the next. Not
 * `muzzy_decay_ms:-1` as well, though it made logins a little faster still: pages would then only
 * ever be handed back lazily (MADV_FREE), which still count as resident, and a copy's peak in the
 * mixed workload doubled.
 */
export const JEMALLOC_CONF = "oversize_threshold:0";
