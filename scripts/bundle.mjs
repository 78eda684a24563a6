#!/usr/bin/env node
// Compiles an app (the server or the worker) to one JavaScript file for production:
//   node scripts/bundle.mjs apps/server     -> apps/server/dist/main.js
// Our own packages (@flagship/*, TypeScript sources) are bundled in; every other package stays
// an import resolved from node_modules at run time, so native addons and Prisma's runtime load
// as usual. The bundle sits at the same depth as src/main.ts, so paths the code computes from
// its own location (migrations, the web build, package.json) stay right.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const app = path.resolve(process.cwd(), process.argv[2] ?? ".");

const externalPackages = {
  name: "external-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@flagship/") || args.path.startsWith("node:")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: [path.join(app, "src/main.ts")],
  outfile: path.join(app, "dist/main.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [externalPackages],
  absWorkingDir: root,
});
