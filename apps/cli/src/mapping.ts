import { combineCtfdFlags } from "@flagship/shared";
import { EXTENSION_KEY, hintIndexOf, isLocalImage, type ChallengeSpec } from "./spec.ts";

/**
 * What a challenge file asks of the server: the fields of the REST challenge object, its hints,
 * files, requirements and challenge server. The same translation of CTFd's flags as the server's
 * CTFd import (combineCtfdFlags): one case-sensitive static flag stays plaintext; otherwise all
 * flags become one RE2 pattern, each an alternative.
 */
export interface DesiredChallenge {
  name: string;
  category: string;
  fields: {
    description: string;
    author: string;
    score: number;
    points_type: "basic" | "decay";
    flag_type: string;
    flag_metadata: Record<string, unknown>;
    hidden: boolean;
    attempt_limit: number | null;
    tags: { type: string; text: string }[];
    challenge_type: string;
    challenge_metadata: Record<string, unknown>;
    tiebreaker: boolean;
    maintenance: boolean;
    post_score_explanation: string;
    /** The repository the challenge comes from (set by the sync, which knows the repository). */
    source: string;
    /** When players first see it (ISO-8601, UTC), or null. */
    scheduled_at: string | null;
  };
  /** `requires`: the positions of the hints (of this list) to use before this one. */
  hints: { name: string; penalty: number; text: string; requires: number[] }[];
  /** Paths relative to the challenge's folder. */
  files: string[];
  /** Challenge names or ids; all must be solved (CTFd's prerequisites). */
  requirements: (string | number)[];
  /** The challenge suggested after a solve (ctfcli's `next`), by name or id, or null. */
  next: string | number | null;
  server: DesiredServer | null;
}

export interface DesiredServer {
  /** A folder to build (relative to the challenge's folder), or an image reference. */
  build: string | null;
  image: string | null;
  name: string;
  port: number | null;
  replicas: number;
  dedicated: boolean;
  memory: number | null;
  cpus: number | null;
  lifetime: number | null;
  flagEnv: string | null;
  env: Record<string, string>;
}

/**
 * A challenge without flags (CTFd allows it) gets a pattern that matches no answer: a challenge
 * here always has a flag, and this one cannot be solved until the file gives it one.
 */
export const NO_FLAG_PATTERN = "[^\\s\\S]";

/** challenge_metadata keys the sync owns: the rest (such as a job's cserv_name) it leaves alone. */
export const OWNED_METADATA_KEYS = ["connection_info", "attribution", "protocol", "host", "x", "y"];

/** A job name from a challenge name: lower-case letters, digits and dashes, at most 48. */
export function jobNameOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return slug || "challenge";
}

export function mapChallenge(spec: ChallengeSpec): { challenge: DesiredChallenge } | { error: string } {
  const ext = spec[EXTENSION_KEY] ?? {};
  let flagType: string;
  let flagMetadata: Record<string, unknown>;
  if (ext.flag) {
    flagType = ext.flag.type;
    flagMetadata = { ...ext.flag.metadata };
  } else {
    const flags = (spec.flags ?? []).map((f) =>
      typeof f === "string" ? { type: "static", content: f, caseInsensitive: false } : { type: f.type, content: f.content, caseInsensitive: f.data === "case_insensitive" },
    );
    const combined = combineCtfdFlags(flags) ?? { flag_type: "regex" as const, flag: NO_FLAG_PATTERN };
    if ("error" in combined) return { error: `flags: ${combined.error}` };
    flagType = combined.flag_type;
    flagMetadata = { flag: combined.flag };
  }

  let score = spec.value ?? 0;
  let pointsType: "basic" | "decay" = "basic";
  const fn = spec.extra?.function ?? (spec.function === "linear" || spec.function === "logarithmic" ? spec.function : undefined);
  if (spec.type === "dynamic" || fn) {
    const initial = spec.extra?.initial ?? score;
    score = initial;
    pointsType = "decay";
    // CTFd's own formulas, scored by the server (flag_metadata.decay_function).
    flagMetadata.decay_function = fn ?? "logarithmic";
    flagMetadata.decay = spec.extra?.decay ?? 0;
    flagMetadata.min_points = Math.min(spec.extra?.minimum ?? initial, initial);
  }

  const metadata: Record<string, unknown> = { ...ext.challenge_metadata };
  if (spec.connection_info) metadata.connection_info = spec.connection_info;
  if (spec.attribution) metadata.attribution = spec.attribution;
  if (spec.protocol) metadata.protocol = spec.protocol;
  if (spec.host) metadata.host = spec.host;
  if (ext.position) Object.assign(metadata, { x: ext.position.x, y: ext.position.y });

  const tags = [...(spec.tags ?? []).map((text) => ({ type: "tag", text })), ...(spec.topics ?? []).map((text) => ({ type: "topic", text }))];
  const hints = (spec.hints ?? []).map((hint, index) =>
    typeof hint === "string"
      ? { name: `Hint ${index + 1}`, penalty: 0, text: hint, requires: [] }
      : {
          name: hint.title?.trim() || `Hint ${index + 1}`,
          penalty: hint.cost,
          text: hint.content,
          requires: [...new Set((hint.requirements ?? []).map((ref) => hintIndexOf(spec, ref)).filter((at): at is number => at !== null && at !== index))],
        },
  );
  const requirements = Array.isArray(spec.requirements) ? spec.requirements : (spec.requirements?.prerequisites ?? []);

  let server: DesiredServer | null = null;
  if (spec.image) {
    const s = ext.server ?? {};
    server = {
      build: isLocalImage(spec.image) ? spec.image : null,
      image: isLocalImage(spec.image) ? null : spec.image,
      name: s.name ?? jobNameOf(spec.name),
      port: s.port ?? null,
      replicas: s.replicas ?? 1,
      dedicated: s.per_team ?? false,
      memory: s.memory ?? null,
      cpus: s.cpus ?? null,
      lifetime: s.lifetime ?? null,
      flagEnv: s.flag_env ?? null,
      env: s.env ?? {},
    };
  }

  return {
    challenge: {
      name: spec.name,
      category: spec.category,
      fields: {
        description: spec.description ?? "",
        author: spec.author ?? "",
        score,
        points_type: pointsType,
        flag_type: flagType,
        flag_metadata: flagMetadata,
        hidden: spec.state === "hidden",
        attempt_limit: spec.attempts && spec.attempts > 0 ? spec.attempts : null,
        tags,
        challenge_type: ext.challenge_type ?? "default",
        challenge_metadata: metadata,
        tiebreaker: ext.tiebreaker ?? true,
        maintenance: ext.maintenance ?? false,
        post_score_explanation: ext.post_score_explanation ?? "",
        source: "",
        scheduled_at: spec.scheduled_at ?? null,
      },
      hints,
      files: spec.files ?? [],
      requirements,
      next: spec.next ?? null,
      server,
    },
  };
}

/**
 * The names players see for a challenge's files, by entry of `files`: the file's own name, or,
 * when two entries share it (`dist/a/notes.txt`, `dist/b/notes.txt`), as many of the folders
 * above it as tell them apart (`a/notes.txt`, `b/notes.txt`).
 */
export function playerFileNames(entries: readonly string[]): Map<string, string> {
  const parts = new Map(entries.map((entry) => [entry, entry.split(/[\\/]+/).filter((part) => part !== "" && part !== ".")]));
  const byBase = new Map<string, string[]>();
  for (const [entry, segments] of parts) {
    const base = segments.at(-1) ?? entry;
    byBase.set(base, [...(byBase.get(base) ?? []), entry]);
  }
  const names = new Map<string, string>();
  for (const group of byBase.values()) {
    const longest = Math.max(...group.map((entry) => parts.get(entry)!.length));
    let depth = 1;
    while (depth < longest && new Set(group.map((entry) => parts.get(entry)!.slice(-depth).join("/"))).size < group.length) depth += 1;
    for (const entry of group) names.set(entry, parts.get(entry)!.slice(-depth).join("/"));
  }
  return names;
}

/** The name a file is uploaded under, which downloads keep: its player name with folders joined by "_". */
export const uploadNameOf = (playerName: string) => playerName.replaceAll("/", "_");

/** The port a Dockerfile says its server listens on: the first EXPOSE, or null. */
export function exposedPort(dockerfile: string): number | null {
  for (const line of dockerfile.split(/\r?\n/)) {
    const match = /^\s*EXPOSE\s+(\d{1,5})(?:\/tcp)?\b/i.exec(line);
    if (match) {
      const port = Number(match[1]);
      if (port >= 1 && port <= 65535) return port;
    }
  }
  return null;
}
