/**
 * Reading Prometheus' text format in tests: one sample's value by metric name and labels (the
 * labels given must match; others on the line are ignored), undefined when no line matches.
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** Every label set of `name`'s samples, for checks on what a label may hold. */
export function labelSets(text: string, name: string): Record<string, string>[] {
  const sets: Record<string, string>[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} \S+$/.exec(line);
    if (!match || match[1] !== name) continue;
    sets.push(Object.fromEntries([...match[2]!.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!])));
  }
  return sets;
}

/** GETs a metrics endpoint's text, failing on anything but 200. */
export async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}
