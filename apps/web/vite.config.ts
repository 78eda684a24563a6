import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const api = process.env.FLAGSHIP_DEV_API ?? "http://127.0.0.1:8080";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every built script, stylesheet and SVG, once at
 * build time, so the server sends compressed files without compressing on each request.
 */
function precompress(): Plugin {
  let outDir = "dist";
  let ssr = false;
  return {
    name: "flagship-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    async closeBundle() {
      // The server's renderer is read from disk by the server, never sent.
      if (ssr) return;
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(js|css|svg|json|txt)$/.test(f) && !f.startsWith(".vite"));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const body = await readFile(full);
          if (body.length < 512) return;
          const [br, gzipped] = await Promise.all([
            brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gz(body, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gzipped)]);
        }),
      );
    },
  };
}

/**
 * Mantine's `useId` (in @mantine/hooks) answers React's id while a component first draws, then a
 * layout effect swaps in a random one, a fallback from before React had `useId`. On a page the
 * server drew, every component with an id (tabs, inputs, alerts, accordions...) is then drawn again
 * at once as hydration commits, and any part of the page under it not hydrated yet is hydrated in
 * the same long task. The build gives Mantine the same hook without the swap: React's id, which is
 * the same on the server and in the browser, kept for the component's life (a given id as before).
 */
function mantineStableIds(): Plugin {
  const target = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;
  return {
    name: "flagship-mantine-stable-ids",
    enforce: "pre",
    load(id) {
      if (!target.test(id.split("?")[0]!)) return null;
      return [
        'import { useId as useReactId } from "react";',
        "export function useId(staticId) {",
        "  const reactId = useReactId();",
        '  return typeof staticId === "string" ? staticId : `mantine-${reactId.replace(/[^\\w-]/g, "")}`;',
        "}",
      ].join("\n");
    },
  };
}

/**
 * Preloads the UI typeface's Latin file (the one every page draws with) from index.html, so the
 * text is drawn in it without waiting for the stylesheet to name it; the @font-face rules keep
 * font-display: swap, so text shows at once in the fallback face if the font is late.
 */
function preloadFont(): Plugin {
  return {
    name: "flagship-preload-font",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((file) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(file));
        if (!font) return [];
        return [{ tag: "link", attrs: { rel: "preload", href: `/${font}`, as: "font", type: "font/woff2", crossorigin: "" }, injectTo: "head" }];
      },
    },
  };
}

/**
 * Emits boot/start-after-paint.js as a hashed asset and names it in index.html (a meta element):
 * the server starts the pages it draws with it, instead of the app's entry (which the static shell
 * keeps, having nothing to show without it).
 */
function startAfterPaint(): Plugin {
  const source = path.resolve(import.meta.dirname, "src/boot/start-after-paint.js");
  return {
    name: "flagship-start-after-paint",
    apply: "build",
    async buildStart() {
      if (this.environment?.config.build.ssr) return;
      this.emitFile({ type: "asset", name: "start-after-paint.js", source: await readFile(source, "utf8") });
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const start = Object.values(ctx.bundle ?? {}).find((file) => file.type === "asset" && file.names.includes("start-after-paint.js"));
        if (!start) return [];
        return [{ tag: "meta", attrs: { name: "flagship-start-after-paint", content: `/${start.fileName}` }, injectTo: "head" }];
      },
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [mantineStableIds(), react(), preloadFont(), startAfterPaint(), precompress()],
  server: {
    port: 5173,
    proxy: { "/api": { target: api, ws: true }, "/trpc": api, "/auth/oidc": api },
  },
  // The server's renderer (`vite build --ssr`, into dist/.ssr, which the server never serves) is one
  // self-contained module: the app and its libraries bundled, so it runs wherever the server runs.
  ssr: { noExternal: true, target: "node" },
  build: isSsrBuild
    ? { outDir: "dist/.ssr", emptyOutDir: false, copyPublicDir: false, sourcemap: true, target: "node20", rolldownOptions: { output: { entryFileNames: "[name].js" } } }
    : {
        outDir: "dist",
        sourcemap: true,
        // The manifest (dist/.vite/manifest.json) maps each source module to its chunks, for the
        // first-load measurement (first-load.ts).
        manifest: true,
        chunkSizeWarningLimit: 1200,
        // Everything the entry imports statically (the shell: the UI kit's core, the router, queries,
        // tRPC, the layout) is one chunk: one request and one compression window instead of thirty
        // small files. Pages and the pieces they share stay split and load with their route. Zod is in
        // no statically imported module, so its jitless switch (main.tsx's first import, for the
        // Content-Security-Policy) has run before any chunk that builds a schema loads.
        rolldownOptions: { output: { codeSplitting: { groups: [{ name: "shell", tags: ["$initial"] }] } } },
      },
}));
