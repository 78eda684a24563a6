#!/usr/bin/env node
// The `flagship` command. In a checkout of the repository it runs the TypeScript sources (through
// tsx), so `npx flagship` works right after `npm ci` with no build step; an installed package has
// no sources and runs its bundle (dist/main.js, made by `npm run build`).
import { existsSync } from "node:fs";

const source = new URL("../src/main.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(new URL("../dist/main.js", import.meta.url).href);
}
