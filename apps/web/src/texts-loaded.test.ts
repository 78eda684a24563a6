import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { i18n } from "./lib/i18n.ts";

/**
 * Every text a module asks for by its key is loaded when the module runs: it is in the app's base
 * texts, in a texts module the shell imports (loaded before any page), or in one among those the
 * module imports, directly or through the modules it imports (statically: what an import() brings
 * may come later), or else in those of every module that imports it. A module that found its
 * texts only because another piece had happened to load them shows raw keys once that piece loads
 * later (the challenge editor did, when the terminal stopped loading with every page).
 */
const SRC = import.meta.dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function flatKeys(texts: unknown, prefix = ""): string[] {
  if (typeof texts !== "object" || texts === null || Array.isArray(texts)) return [prefix];
  return Object.entries(texts).flatMap(([key, value]) => flatKeys(value, prefix ? `${prefix}.${key}` : key));
}

const bundleKeys = () => new Set(flatKeys(i18n.getResourceBundle("en", "translation")));

/** A module's static imports of other modules of the app (not `import type`, not `import()`). */
function staticImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/gm)) {
    found.push(path.resolve(path.dirname(file), match[1]!));
  }
  return found;
}

/** The keys a module asks for as literal text: t("a.b"), i18n.t("a.b"), <Trans i18nKey="a.b">. */
function keysUsed(text: string): string[] {
  const keys = new Set<string>();
  for (const match of text.matchAll(/\bt\(\s*["'`]([a-z0-9_]+(?:\.[a-z0-9_]+)+)["'`]/g)) keys.add(match[1]!);
  for (const match of text.matchAll(/i18nKey=["']([a-z0-9_]+(?:\.[a-z0-9_]+)+)["']/g)) keys.add(match[1]!);
  return [...keys];
}

describe("texts", () => {
  it("every key a module asks for is loaded by the modules it imports", async () => {
    const files = sources(SRC);
    const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
    const base = bundleKeys();
    const entry = path.join(SRC, "main.tsx");
    // What each texts module adds, by loading them one by one.
    const added = new Map<string, Set<string>>();
    for (const file of files.filter((f) => /addTexts\(/.test(texts.get(f)!) && !f.endsWith(path.join("lib", "i18n.ts")))) {
      const before = bundleKeys();
      await import(file);
      added.set(file, new Set([...bundleKeys()].filter((key) => !before.has(key))));
    }
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file) || !texts.has(file)) return seen;
      seen.add(file);
      for (const next of staticImports(file, texts.get(file)!)) closure(next, seen);
      return seen;
    };
    // The shell's modules (what the entry imports) are loaded before any page: their texts always are.
    const shell = new Set(base);
    for (const reached of closure(entry)) for (const key of added.get(reached) ?? []) shell.add(key);
    const has = (keys: Set<string>, key: string) => keys.has(key) || keys.has(`${key}_one`) || keys.has(`${key}_other`) || [...keys].some((k) => k.startsWith(`${key}.`));
    const importers = new Map<string, string[]>();
    for (const file of files) for (const imported of staticImports(file, texts.get(file)!)) importers.set(imported, [...(importers.get(imported) ?? []), file]);
    const loadedBy = new Map<string, Set<string>>();
    const ownTexts = (file: string) => {
      let loaded = loadedBy.get(file);
      if (!loaded) {
        loaded = new Set(shell);
        for (const reached of closure(file)) for (const key of added.get(reached) ?? []) loaded.add(key);
        loadedBy.set(file, loaded);
      }
      return loaded;
    };
    // Loaded for a module: by what it imports, or else by every module that imports it (it only
    // runs once one of them has been loaded, with its imports).
    const available = (file: string, key: string, seen = new Set<string>()): boolean => {
      if (has(ownTexts(file), key)) return true;
      if (seen.has(file)) return true;
      seen.add(file);
      const by = importers.get(file) ?? [];
      return by.length > 0 && by.every((importer) => available(importer, key, seen));
    };
    const missing: string[] = [];
    for (const file of files) {
      for (const key of keysUsed(texts.get(file)!)) if (!available(file, key)) missing.push(`${path.relative(SRC, file)}: ${key}`);
    }
    expect(missing).toEqual([]);
  });
});
