// The Node.js flags the compiled server runs with (npm start, and the benchmark, which measures
// the server as npm start runs it).
//
// --max-old-space-size: V8 sizes its heap by this limit, and with its default (gigabytes) a busy
// server lets garbage pile up to hundreds of MiB before collecting. 256 MiB holds every bounded
// cache of a large event with room to spare and keeps a copy's resident memory near 250 MiB under
// load. NODE_OPTIONS with its own --max-old-space-size wins.
export function serverNodeFlags(env = process.env) {
  const own = /--max-old-space-size/.test(env.NODE_OPTIONS ?? "");
  return ["--enable-source-maps", ...(own ? [] : ["--max-old-space-size=256"])];
}
