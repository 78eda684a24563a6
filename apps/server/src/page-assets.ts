import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** One entry of the web build's manifest (Vite's `.vite/manifest.json`). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * The code and styles of the deferred pieces a server-drawn page shows, as links for its head: the
 * styles, which the browser would otherwise add only when each piece's code has run (the page
 * would move as they arrive: a layout shift), and the code, fetched with the app's entry rather
 * than once the entry has asked for it. Pieces are named by module (`features/leaderboard/LeaderboardPage`,
 * lib/deferred.tsx), which the build's manifest knows by source path.
 */
export class PageAssets {
  private readonly cache = new Map<string, { styles: string; code: readonly string[] }>();

  private constructor(
    private readonly manifest: Record<string, ManifestChunk>,
    /** What the page's static head already links (the entry's own code and styles). */
    private readonly linked: Set<string>,
  ) {}

  /** Reads the build's manifest; null without one (no links are added). */
  static load(webRoot: string): PageAssets | null {
    const file = path.join(webRoot, ".vite", "manifest.json");
    if (!existsSync(file)) return null;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, ManifestChunk>;
    const linked = new Set<string>();
    for (const chunk of closure(manifest, ["index.html"])) for (const asset of [chunk.file, ...(chunk.css ?? [])]) linked.add(asset);
    return new PageAssets(manifest, linked);
  }

  /**
   * These modules' styles, as `<link>` elements for the head, and their code (and that of the
   * chunks they import), as addresses.
   */
  assets(modules: readonly string[]): { styles: string; code: readonly string[] } {
    const key = [...modules].sort().join(" ");
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const roots = modules.flatMap((module) => [`src/${module}.tsx`, `src/${module}.ts`]).filter((source) => this.manifest[source]);
    const styles = new Set<string>();
    const code = new Set<string>();
    for (const chunk of closure(this.manifest, roots)) {
      for (const css of chunk.css ?? []) if (!this.linked.has(css)) styles.add(css);
      if (!this.linked.has(chunk.file)) code.add(chunk.file);
    }
    const found = { styles: [...styles].map((href) => `<link rel="stylesheet" crossorigin href="/${href}">`).join(""), code: [...code].map((href) => `/${href}`) };
    if (this.cache.size >= 500) this.cache.clear();
    this.cache.set(key, found);
    return found;
  }
}

/** The chunks these manifest keys name and every chunk they import, statically, in turn. */
function closure(manifest: Record<string, ManifestChunk>, roots: readonly string[]): ManifestChunk[] {
  const seen = new Set<string>();
  const chunks: ManifestChunk[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    chunks.push(chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return chunks;
}
