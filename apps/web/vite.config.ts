import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const api = process.env.FLAGSHIP_DEV_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { "/api": { target: api, ws: true }, "/trpc": api },
  },
  build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 1200 },
});
