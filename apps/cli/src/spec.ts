import { readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from "yaml";
import { z } from "zod";

/**
 * The challenge file: CTFd's `challenge.yml` as ctfcli publishes it (its spec and example), plus
 * Flagship's own settings under the one extension key `flagship`. Unknown keys are warnings, not
 * errors, so files written for other tools still load.
 */

/** Every key of ctfcli's spec (and its deployment keys), whether Flagship uses it or not. */
const CTFD_KEYS = [
  "name",
  "author",
  "category",
  "description",
  "attribution",
  "value",
  "type",
  "extra",
  "image",
  "protocol",
  "host",
  "connection_info",
  "healthcheck",
  "attempts",
  "logic",
  "flags",
  "topics",
  "tags",
  "files",
  "hints",
  "requirements",
  "next",
  "state",
  "version",
  "scheduled_at",
] as const;
export const EXTENSION_KEY = "flagship";

/**
 * Keys ctfcli knows that Flagship has no use for: a writeup (`solution`), a module of a
 * deployment, a health check script. They are ignored with one warning per repository and key,
 * not one per challenge: a repository often has them in every file.
 */
const UNUSED_CTFD_KEYS = ["solution", "module", "healthcheck"] as const;

const text = (max: number) => z.string().max(max);
/**
 * A whole number, also when quoted (`value: "500"`): ctfcli sent such values to CTFd as they were
 * and CTFd read them as numbers, so published repositories have them.
 */
const count = z.preprocess((v) => (typeof v === "string" && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : v), z.number().int().min(0).max(1_000_000));

const ZFlag = z.union([
  z.string().min(1),
  z.object({
    type: z.enum(["static", "regex"]).default("static"),
    content: z.string().min(1),
    // CTFd reads only "case_insensitive" here; anything else (ctfcli's example has free text) is case-sensitive.
    data: z.string().nullish(),
  }),
]);

const ZHint = z.union([
  z.string().min(1),
  z.object({
    content: z.string().min(1),
    cost: count.default(0),
    title: text(255).nullish(),
    /** A name other hints of the challenge require it by. */
    key: text(255).trim().min(1).nullish(),
    /** Hints of the challenge to use before this one, by key (or title). */
    requirements: z.array(text(255).trim().min(1), { error: "Give the hints it requires by their key (or title)." }).max(100).nullish(),
  }),
]);

const ZRequirement = z.union([z.string().min(1), z.number().int().positive()]);

/** Flagship's own settings for one challenge (the `flagship:` key). */
export const ZExtension = z
  .object({
    /** A flag type of Flagship's own (lenient, long_text, hashed, dynamic, map...) with its metadata; replaces `flags`. */
    flag: z.object({ type: z.string().min(1), metadata: z.record(z.string(), z.unknown()).default({}) }).strict().optional(),
    challenge_type: z.string().min(1).max(64).optional(),
    challenge_metadata: z.record(z.string(), z.unknown()).optional(),
    /** Where the tile sits in a campaign (tile map) category. */
    position: z.object({ x: z.number(), y: z.number() }).strict().optional(),
    tiebreaker: z.boolean().optional(),
    maintenance: z.boolean().optional(),
    post_score_explanation: text(100_000).optional(),
    /** The challenge server built or pulled from `image`. */
    server: z
      .object({
        name: z.string().min(1).max(48).optional(),
        port: z.number().int().min(1).max(65535).optional(),
        replicas: z.number().int().min(1).max(100).optional(),
        /** One instance per team instead of shared replicas. */
        per_team: z.boolean().optional(),
        memory: z.number().int().positive().optional(),
        cpus: z.number().positive().optional(),
        lifetime: z.number().int().positive().optional(),
        flag_env: z.string().min(1).optional(),
        env: z.record(z.string(), z.string()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type Extension = z.infer<typeof ZExtension>;

export const ZChallengeSpec = z
  .object({
    name: text(255).trim().min(1),
    category: text(255).trim().min(1),
    author: text(255).nullish(),
    description: text(100_000).nullish(),
    attribution: text(10_000).nullish(),
    value: count.nullish(),
    type: z.enum(["standard", "dynamic"]).default("standard"),
    extra: z
      .object({
        initial: count.optional(),
        decay: count.optional(),
        minimum: count.optional(),
        function: z.enum(["linear", "logarithmic"]).optional(),
      })
      .passthrough()
      .nullish(),
    function: z.enum(["linear", "logarithmic", "static"]).nullish(),
    image: text(255).nullish(),
    protocol: text(64).nullish(),
    host: text(255).nullish(),
    connection_info: text(2000).nullish(),
    healthcheck: z.string().nullish(),
    attempts: count.nullish(),
    logic: z.literal("any").nullish(),
    flags: z.array(ZFlag).max(100).nullish(),
    topics: z.array(text(64).trim().min(1)).max(50).nullish(),
    tags: z.array(text(64).trim().min(1)).max(50).nullish(),
    files: z.array(z.string().min(1)).max(100).nullish(),
    hints: z.array(ZHint).max(100).nullish(),
    requirements: z
      .union([z.array(ZRequirement), z.object({ prerequisites: z.array(ZRequirement).default([]), anonymize: z.boolean().optional() })])
      .nullish(),
    next: z.union([z.string().min(1), z.number().int().positive()]).nullish(),
    state: z.enum(["visible", "hidden"]).default("visible"),
    /**
     * When players first see the challenge, as ctfcli writes it: ISO-8601, such as
     * 2026-05-01T18:00:00Z or 2026-05-01T20:00:00+02:00; a time without an offset is UTC.
     */
    scheduled_at: z
      .union([z.string(), z.date()])
      .transform((value, ctx) => {
        const text = value instanceof Date ? value.toISOString() : value.trim();
        const parsed = z.iso.datetime({ offset: true, local: true }).safeParse(text);
        const date = parsed.success ? new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text}Z`) : null;
        if (!date || Number.isNaN(date.getTime())) {
          ctx.addIssue({ code: "custom", message: `"${text}" is not an ISO-8601 date and time (such as 2026-05-01T18:00:00Z).` });
          return z.NEVER;
        }
        return date.toISOString();
      })
      .nullish(),
    version: z.union([z.string(), z.number()]).nullish(),
    [EXTENSION_KEY]: ZExtension.nullish(),
  })
  .superRefine((spec, ctx) => {
    if (spec.type === "dynamic") {
      for (const key of ["initial", "decay", "minimum"] as const) {
        if (spec.extra?.[key] === undefined) ctx.addIssue({ code: "custom", path: ["extra", key], message: `A dynamic challenge needs extra.${key}.` });
      }
      if (spec.extra?.initial !== undefined && spec.extra.minimum !== undefined && spec.extra.minimum > spec.extra.initial) {
        ctx.addIssue({ code: "custom", path: ["extra", "minimum"], message: "The minimum is more than the initial value." });
      }
    } else if (spec.value == null) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "A standard challenge needs a value." });
    }
    const hasFlags = (spec.flags?.length ?? 0) > 0;
    if (hasFlags && spec[EXTENSION_KEY]?.flag) ctx.addIssue({ code: "custom", path: [EXTENSION_KEY, "flag"], message: `Give either flags or ${EXTENSION_KEY}.flag, not both.` });
  });
export type ChallengeSpec = z.infer<typeof ZChallengeSpec>;

export interface Problem {
  file: string;
  line: number;
  message: string;
  severity: "error" | "warning";
}

/** A file a challenge hands out, as found on disk: its real path (links resolved) and size. */
export interface LocalFile {
  path: string;
  size: number;
  /** The line of its entry in the challenge file, to point at when the server would refuse it. */
  line: number;
}

/** One challenge file, read and checked. `spec` is null when it has errors. */
export interface LoadedChallenge {
  file: string;
  dir: string;
  spec: ChallengeSpec | null;
  problems: Problem[];
  /** Each entry of `files` (as written) with the file it really is; read from there, never from the name. */
  files: Map<string, LocalFile>;
}

/** The line (1-based) of the node at `keys` in the document, or of the nearest parent that exists. */
function lineOf(doc: Document, lines: LineCounter, keys: readonly PropertyKey[]): number {
  for (let n = keys.length; n >= 0; n -= 1) {
    const node = n === 0 ? doc.contents : doc.getIn(keys.slice(0, n) as unknown[], true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return lines.linePos(range[0]).line;
  }
  return 1;
}

type Issue = z.core.$ZodIssue;

/**
 * A value that fits no form of a union (a hint is a string or {content, cost}) is explained by
 * the form it came closest to: the one whose problem lies deepest inside the value.
 */
function deepest(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
  const branches = issue.errors.map((branch) => branch.flatMap(deepest));
  const depth = (branch: Issue[]) => Math.max(...branch.map((i) => i.path.length));
  const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  if (depth(best) === 0) return [issue];
  return best.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}

const DYNAMIC_KEYS = ["initial", "decay", "minimum"] as const;
const OLDER_DYNAMIC_KEYS = [...DYNAMIC_KEYS, "function"];

/**
 * Older ctfcli versions wrote a dynamic challenge's `decay` and `minimum` (and sometimes `initial`
 * and `function`) at the top level, with `value` as the initial value, and sent them to CTFd as they were. Such a
 * file is read as those versions read it: the keys move under `extra` (what `extra` itself says
 * wins) and `value` becomes `extra.initial`. Answers the top-level keys it moved, in file order.
 */
function olderDynamicFields(data: Record<string, unknown>): string[] {
  if (data.type !== "dynamic") return [];
  const moved = Object.keys(data).filter((key) => OLDER_DYNAMIC_KEYS.includes(key));
  if (moved.length === 0) return [];
  const extra: Record<string, unknown> = data.extra && typeof data.extra === "object" && !Array.isArray(data.extra) ? { ...(data.extra as Record<string, unknown>) } : {};
  for (const key of moved) {
    extra[key] ??= data[key];
    delete data[key];
  }
  if (data.value != null) extra.initial ??= data.value;
  data.extra = extra;
  return moved;
}

/** Parses and checks one challenge file's text. Pure: `file` only labels the problems. */
export function checkChallengeFile(file: string, source: string): { spec: ChallengeSpec | null; problems: Problem[]; unused: { key: string; line: number }[] } {
  const unused: { key: string; line: number }[] = [];
  return { ...checkChallengeText(file, source, unused), unused };
}

function checkChallengeText(file: string, source: string, unused: { key: string; line: number }[]): { spec: ChallengeSpec | null; problems: Problem[] } {
  const lines = new LineCounter();
  // Keys given twice are read as ctfcli's YAML reader reads them (the later one wins), with a warning.
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const problems: Problem[] = [];
  // Without prettyErrors the parser leaves linePos empty: the line comes from the error's offset.
  for (const error of doc.errors) problems.push({ file, line: lines.linePos(error.pos[0]).line, message: error.message.split("\n")[0]!, severity: "error" });
  if (problems.length > 0) return { spec: null, problems };
  visit(doc, {
    Map(_key, map) {
      const seen = new Map<unknown, number>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const line = isScalar(pair.key) && pair.key.range ? lines.linePos(pair.key.range[0]).line : 1;
        const earlier = seen.get(key);
        if (earlier !== undefined) problems.push({ file, line, message: `"${String(key)}" is given twice (first on line ${earlier}); the later one is used, as ctfcli reads it.`, severity: "warning" });
        else seen.set(key, line);
      }
    },
  });
  if (!isMap(doc.contents)) return { spec: null, problems: [{ file, line: 1, message: "A challenge file is a map of keys (name, category, value, flags...).", severity: "error" }] };
  const data = doc.toJS() as Record<string, unknown>;
  const moved = olderDynamicFields(data);
  if (moved.length > 0) {
    const extra = data.extra as Record<string, unknown>;
    const keys = extra.function === undefined ? DYNAMIC_KEYS : [...DYNAMIC_KEYS, "function"];
    const form = `extra: {${keys.map((key) => `${key}: ${String(extra[key] ?? "...")}`).join(", ")}}`;
    problems.push({ file, line: lineOf(doc, lines, [moved[0]!]), message: `${moved.join(", ").replace(/, ([^,]*)$/, " and $1")} at the top level is ctfcli's older form, read as it was; write ${form} instead.`, severity: "warning" });
  }
  const known = new Set<string>([...CTFD_KEYS, EXTENSION_KEY]);
  for (const key of Object.keys(data)) {
    if ((UNUSED_CTFD_KEYS as readonly string[]).includes(key)) unused.push({ key, line: lineOf(doc, lines, [key]) });
    else if (!known.has(key)) problems.push({ file, line: lineOf(doc, lines, [key]), message: `Unknown key "${key}" is ignored.`, severity: "warning" });
  }
  const known_only = Object.fromEntries(Object.entries(data).filter(([key]) => known.has(key) && !(UNUSED_CTFD_KEYS as readonly string[]).includes(key)));
  const parsed = ZChallengeSpec.safeParse(known_only);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.flatMap(deepest)) {
      const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
      // A value moved from the older top-level form is pointed at where the file has it.
      const at = issue.path[0] === "extra" && moved.includes(issue.path[1] as string) ? [issue.path[1]!] : issue.path;
      problems.push({ file, line: lineOf(doc, lines, at), message: `${where}${issue.message}`, severity: "error" });
    }
    return { spec: null, problems };
  }
  if ((parsed.data.flags?.length ?? 0) === 0 && !parsed.data[EXTENSION_KEY]?.flag) {
    problems.push({ file, line: lineOf(doc, lines, ["flags"]), message: "No flags: nobody can solve this challenge until it has one.", severity: "warning" });
  }
  return { spec: parsed.data, problems };
}

const FILE_NAMES = new Set(["challenge.yml", "challenge.yaml"]);
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

/**
 * Every challenge file below `root`, in a stable order. A challenge file may be a link (it is
 * checked where it leads, by `loadRepository`); linked folders are not followed, so a link can
 * neither pull a folder from elsewhere into the repository nor walk the same folder twice.
 */
export async function findChallengeFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await walk(path.join(dir, entry.name));
      else if ((entry.isFile() || entry.isSymbolicLink()) && FILE_NAMES.has(entry.name)) found.push(path.join(dir, entry.name));
    }
  }
  await walk(root);
  return found;
}

/** Whether `target` (a real path) is `root` itself or inside it. */
function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The real path of `target` with every link resolved, or null when it (or a link on the way) leads nowhere. */
async function realPathOf(target: string): Promise<string | null> {
  return realpath(target).catch(() => null);
}

/**
 * Loads every challenge below `root` and checks what one file cannot: names unique within a
 * category, listed files present, requirements naming a challenge of the repository (or an id).
 *
 * Every challenge file, handed-out file and build folder is resolved to its real path and must be
 * inside the repository: a repository is reviewed (a pull request) and then synced, and a link
 * such as `dist/notes.txt -> /etc/passwd` looks harmless in review but would publish the machine's
 * file to players. Comparing the text of paths cannot see links, so real paths are compared.
 */
export async function loadRepository(root: string): Promise<LoadedChallenge[]> {
  const realRoot = await realpath(root);
  const files = await findChallengeFiles(realRoot);
  const loaded: LoadedChallenge[] = [];
  const sources = new Map<LoadedChallenge, string>();
  /** Each unused ctfcli key: the first file and line that has it, and how many files do. */
  const unusedKeys = new Map<string, { challenge: LoadedChallenge; line: number; count: number }>();
  for (const file of files) {
    const label = path.relative(process.cwd(), file) || file;
    const real = await realPathOf(file);
    if (real === null || !isInside(realRoot, real)) {
      const why = real === null ? "is a link that leads nowhere" : `is a link to ${real}, outside the repository; it is not read`;
      loaded.push({ file: label, dir: path.dirname(file), spec: null, problems: [{ file: label, line: 1, message: `${path.basename(file)} ${why}.`, severity: "error" }], files: new Map() });
      continue;
    }
    const source = await readFile(real, "utf8");
    const { spec, problems, unused } = checkChallengeFile(label, source);
    const challenge: LoadedChallenge = { file: label, dir: path.dirname(file), spec, problems, files: new Map() };
    for (const { key, line } of unused) {
      const seen = unusedKeys.get(key);
      if (seen) seen.count += 1;
      else unusedKeys.set(key, { challenge, line, count: 1 });
    }
    loaded.push(challenge);
    sources.set(challenge, source);
  }
  for (const [key, { challenge, line, count }] of unusedKeys) {
    const where = count === 1 ? "1 challenge file has it" : `${count} challenge files have it`;
    challenge.problems.push({ file: challenge.file, line, message: `"${key}" is ctfcli's but Flagship does not use it; it is ignored (${where}; said once for the repository).`, severity: "warning" });
  }
  const seen = new Map<string, string>();
  const names = new Set(loaded.flatMap((c) => (c.spec ? [c.spec.name] : [])));
  for (const challenge of loaded) {
    const spec = challenge.spec;
    if (!spec) continue;
    const lines = new LineCounter();
    const doc = parseDocument(sources.get(challenge)!, { lineCounter: lines });
    const key = `${spec.category}\u0000${spec.name}`;
    const other = seen.get(key);
    if (other) challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, ["name"]), message: `"${spec.name}" in "${spec.category}" is also defined in ${other}.`, severity: "error" });
    else seen.set(key, challenge.file);
    const label = `"${spec.category}/${spec.name}"`;
    for (const [index, name] of (spec.files ?? []).entries()) {
      const problem = (message: string) => challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, ["files", index]), message: `files: ${message}`, severity: "error" });
      const full = path.resolve(challenge.dir, name);
      if (!full.startsWith(path.resolve(challenge.dir) + path.sep)) {
        problem(`"${name}" is outside the challenge's folder.`);
        continue;
      }
      const real = await realPathOf(full);
      const info = real === null ? null : await stat(real).catch(() => null);
      if (real === null || !info) {
        problem(`"${name}" does not exist.`);
      } else if (!isInside(realRoot, real)) {
        problem(`"${name}" of ${label} is a link to ${real}, outside the repository; it is not uploaded.`);
      } else if (!info.isFile()) {
        problem(`"${name}" is not a file.`);
      } else {
        challenge.files.set(name, { path: real, size: info.size, line: lineOf(doc, lines, ["files", index]) });
      }
    }
    const requirements = Array.isArray(spec.requirements) ? spec.requirements : (spec.requirements?.prerequisites ?? []);
    const path_ = Array.isArray(spec.requirements) ? ["requirements"] : ["requirements", "prerequisites"];
    for (const [index, ref] of requirements.entries()) {
      if (typeof ref === "string" && !names.has(ref) && !/^\d+$/.test(ref)) {
        challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, [...path_, index]), message: `requirements: no challenge named "${ref}" in the repository.`, severity: "error" });
      }
      if (ref === spec.name) challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, [...path_, index]), message: "requirements: a challenge cannot require itself.", severity: "error" });
    }
    if (typeof spec.next === "string" && !names.has(spec.next) && !/^\d+$/.test(spec.next)) {
      challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, ["next"]), message: `next: no challenge named "${spec.next}" in the repository.`, severity: "error" });
    }
    if (spec.next === spec.name) challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, ["next"]), message: "next: a challenge cannot suggest itself.", severity: "error" });
    const hints = (spec.hints ?? []).map((hint) => (typeof hint === "string" ? null : hint));
    const keys = new Map<string, number>();
    for (const [index, hint] of hints.entries()) {
      if (!hint?.key) continue;
      if (keys.has(hint.key)) challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, ["hints", index, "key"]), message: `hints: the key "${hint.key}" is also hint ${keys.get(hint.key)! + 1}'s.`, severity: "error" });
      else keys.set(hint.key, index);
    }
    for (const [index, hint] of hints.entries()) {
      for (const [at, ref] of (hint?.requirements ?? []).entries()) {
        const found = hintIndexOf(spec, ref);
        const line = lineOf(doc, lines, ["hints", index, "requirements", at]);
        if (found === null) challenge.problems.push({ file: challenge.file, line, message: `hints: no hint of "${spec.name}" has the key (or title) "${ref}".`, severity: "error" });
        else if (found === index) challenge.problems.push({ file: challenge.file, line, message: "hints: a hint cannot require itself.", severity: "error" });
      }
    }
    const image = spec.image;
    if (image && isLocalImage(image)) {
      const problem = (message: string) => challenge.problems.push({ file: challenge.file, line: lineOf(doc, lines, ["image"]), message: `image: ${message}`, severity: "error" });
      // The build sends the whole folder to Docker: it must be the repository's too.
      const context = await realPathOf(path.resolve(challenge.dir, image));
      const dockerfile = context === null ? null : await realPathOf(path.join(context, "Dockerfile"));
      if (context !== null && !isInside(realRoot, context)) problem(`"${image}" of ${label} is ${context}, outside the repository; it is not built.`);
      else if (dockerfile !== null && !isInside(realRoot, dockerfile)) problem(`the Dockerfile in "${image}" of ${label} is a link to ${dockerfile}, outside the repository; it is not built.`);
      else if (dockerfile === null || !(await stat(dockerfile)).isFile()) problem(`no Dockerfile in "${image}".`);
    }
    if (challenge.problems.some((p) => p.severity === "error")) challenge.spec = null;
  }
  return loaded;
}

/** The position of the hint a requirement names: by key first, else by title; null when none. */
export function hintIndexOf(spec: ChallengeSpec, ref: string): number | null {
  const hints = spec.hints ?? [];
  const byKey = hints.findIndex((hint) => typeof hint !== "string" && hint.key === ref);
  if (byKey >= 0) return byKey;
  const byTitle = hints.findIndex((hint) => typeof hint !== "string" && hint.title?.trim() === ref);
  return byTitle >= 0 ? byTitle : null;
}

/** `image: .` or a relative path is a folder to build; anything else is an image reference. */
export function isLocalImage(image: string): boolean {
  return image === "." || image.startsWith("./") || image.startsWith("../");
}
