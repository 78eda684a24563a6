import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const api = process.env.FLAGSHIP_DEV_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { "/api": { target: api, ws: true }, "/trpc": api },
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    // Modules run in source order whatever chunk they land in, so main.tsx's first import (zod's
    // jitless switch, which the Content-Security-Policy needs) runs before any schema is built.
    rolldownOptions: { output: { strictExecutionOrder: true } },
  },
});
