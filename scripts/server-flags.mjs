// The Node.js flags the compiled server runs with (npm start, and the benchmark, which measures
// the server as npm start runs it).
//
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
export function serverNodeFlags(env = process.env) {
  const own = /--max-old-space-size/.test(env.NODE_OPTIONS ?? "");
  return own ? [] : ["--max-old-space-size=256"];
}
