import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Api, CliError, EXIT } from "./client.ts";
import { buildImage } from "./docker.ts";
import { exposedPort, mapChallenge, OWNED_METADATA_KEYS, type DesiredChallenge, type DesiredServer } from "./mapping.ts";
import type { Progress } from "./progress.ts";
import { type RemoteCategory, type RemoteChallenge, type RemoteJob, sameJson } from "./remote.ts";
import { loadRepository, type LocalFile, type Problem } from "./spec.ts";

export interface SyncOptions {
  dryRun: boolean;
  prune: boolean;
}

export interface SyncSummary {
  /** One line per change, as printed. */
  changes: string[];
  /** Challenges the repository has (created, updated or already up to date). */
  challenges: number;
  /** Of those, the ones created or changed. */
  changed: number;
  /** Challenges deleted (or that would be) because the repository does not have them. */
  deleted: number;
}

interface Planned {
  desired: DesiredChallenge;
  dir: string;
  file: string;
  /** The handed-out files by their entry in `files`, resolved and checked by loadRepository. */
  local: Map<string, LocalFile>;
}

/** Prints each problem as `file:line: severity: message`. */
export function formatProblems(problems: readonly Problem[]): string[] {
  return problems.map((p) => `${p.file}:${p.line}: ${p.severity}: ${p.message}`);
}

/** Loads and checks the repository; throws (exit 1) with every problem when any is an error. */
export async function loadPlanned(root: string, log: (line: string) => void): Promise<Planned[]> {
  const loaded = await loadRepository(root);
  if (loaded.length === 0) throw new CliError(`No challenge.yml (or challenge.yaml) below ${root}.`, EXIT.problems);
  const problems = loaded.flatMap((c) => c.problems);
  const planned: Planned[] = [];
  for (const challenge of loaded) {
    if (!challenge.spec) continue;
    const mapped = mapChallenge(challenge.spec);
    if ("error" in mapped) problems.push({ file: challenge.file, line: 1, message: mapped.error, severity: "error" });
    else planned.push({ desired: mapped.challenge, dir: challenge.dir, file: challenge.file, local: challenge.files });
  }
  for (const line of formatProblems(problems.filter((p) => p.severity === "warning"))) log(line);
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length > 0) throw new CliError(`${formatProblems(errors).join("\n")}\n${errors.length} problem(s); nothing was changed.`, EXIT.problems);
  return planned;
}

const CHALLENGE_KEYS = [
  "description",
  "author",
  "score",
  "points_type",
  "flag_type",
  "flag_metadata",
  "hidden",
  "attempt_limit",
  "tags",
  "challenge_type",
  "challenge_metadata",
  "tiebreaker",
  "maintenance",
  "post_score_explanation",
] as const;

/** The metadata to store: the remote's own keys (a job's cserv_name...) kept, the sync's replaced. */
function mergedMetadata(remote: Record<string, unknown>, desired: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(remote).filter(([key]) => !OWNED_METADATA_KEYS.includes(key)));
  return { ...kept, ...desired };
}

/** The fields of `remote` that differ from what the file asks, as a PATCH body. */
export function changedFields(remote: RemoteChallenge, desired: DesiredChallenge["fields"]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of CHALLENGE_KEYS) {
    const want = key === "challenge_metadata" ? mergedMetadata(remote.challenge_metadata ?? {}, desired.challenge_metadata) : desired[key];
    const have = key === "attempt_limit" ? (remote.attempt_limit ?? null) : remote[key];
    if (!sameJson(have, want)) patch[key] = want;
  }
  return patch;
}

/** CTFd's prerequisites are all required: "a b AND c AND". */
export function unlockExpression(ids: readonly number[]): string {
  return ids.map((id, i) => (i === 0 ? String(id) : `${id} AND`)).join(" ");
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function sameFile(api: Api, url: string, size: number, local: LocalFile): Promise<boolean> {
  if (local.size !== size) return false;
  const [remote, mine] = await Promise.all([api.download(url), readFile(local.path)]);
  return sha256(remote) === sha256(mine);
}

/** Uploads the file an entry of `files` resolved to, under the entry's own name (not the name a link leads to). */
async function uploadFile(api: Api, name: string, local: LocalFile, progress: Progress): Promise<{ name: string; url: string; size: number }> {
  const { size } = local;
  const bar = progress.bar(`upload ${name}`, size);
  try {
    const stored = await api.upload(name, size, createReadStream(local.path), (n) => bar.increment(n));
    bar.finish();
    return stored;
  } finally {
    bar.stop();
  }
}

/** The job spec a challenge server should run with, building its image first when it is a folder. */
async function desiredJob(server: DesiredServer, dir: string, progress: Progress): Promise<Record<string, unknown>> {
  let image = server.image;
  let port = server.port;
  if (server.build !== null) {
    const context = path.resolve(dir, server.build);
    if (port === null) port = exposedPort(await readFile(path.join(context, "Dockerfile"), "utf8"));
    image = await buildImage(context, `flagship-challenge/${server.name}`, progress);
  }
  if (port === null) throw new CliError(`${server.name}: give the server's port (flagship.server.port, or EXPOSE in its Dockerfile).`, EXIT.problems);
  return {
    name: server.name,
    port,
    replicas: server.replicas,
    image,
    dedicated: server.dedicated,
    env: server.env,
    ...(server.flagEnv !== null && { flag_env: server.flagEnv }),
    ...(server.lifetime !== null && { lifetime: server.lifetime }),
    ...((server.memory !== null || server.cpus !== null) && {
      resources: { ...(server.memory !== null && { memory: server.memory }), ...(server.cpus !== null && { cpus: server.cpus }) },
    }),
  };
}

function jobDiffers(job: RemoteJob | undefined, spec: Record<string, unknown>): boolean {
  if (!job) return true;
  const resources = spec.resources as { memory?: number; cpus?: number } | undefined;
  return (
    job.name !== spec.name ||
    job.image !== spec.image ||
    job.port !== spec.port ||
    job.replicas !== spec.replicas ||
    job.dedicated !== spec.dedicated ||
    !sameJson(job.env, spec.env) ||
    (job.flag_env ?? null) !== ((spec.flag_env as string | undefined) ?? null) ||
    (spec.lifetime !== undefined && job.lifetime !== spec.lifetime) ||
    (resources?.memory !== undefined && job.resources.memory !== resources.memory) ||
    (resources?.cpus !== undefined && job.resources.cpus !== resources.cpus)
  );
}

/**
 * Makes the server's challenges what the repository says: categories by name, challenges by name
 * within their category, then hints, files, unlock requirements (once every challenge has an id)
 * and challenge servers. Only what differs is written, so a second run writes nothing.
 */
export async function syncRepository(api: Api, root: string, options: SyncOptions, progress: Progress, log: (line: string) => void): Promise<SyncSummary> {
  const planned = await loadPlanned(root, log);
  const categories = await api.get<RemoteCategory[]>("/challenges/categories/");
  const jobs = await api.get<RemoteJob[]>("/challengeserver/jobs/");
  const changes: string[] = [];
  const changedChallenges = new Set<string>();
  const verb = (done: string, would: string) => (options.dryRun ? would : done);
  const note = (key: string, line: string) => {
    changedChallenges.add(key);
    changes.push(line);
    log(line);
  };

  const categoryIds = new Map(categories.map((c) => [c.name, c.id]));
  const remoteByKey = new Map<string, RemoteChallenge>();
  for (const category of categories) for (const challenge of category.challenges) remoteByKey.set(`${category.name}\u0000${challenge.name}`, challenge);

  // Categories first: every challenge needs its category's id.
  for (const name of new Set(planned.map((p) => p.desired.category))) {
    if (categoryIds.has(name)) continue;
    const line = `+ ${verb("created", "would create")} category "${name}"`;
    changes.push(line);
    log(line);
    if (!options.dryRun) {
      const created = await api.request<{ id: number }>("POST", "/challenges/categories/", { name });
      categoryIds.set(name, created.id);
    }
  }

  // Challenges, their hints and files.
  const ids = new Map<string, number>();
  const remoteOf = new Map<string, RemoteChallenge>();
  for (const { desired, local } of planned) {
    const key = `${desired.category}\u0000${desired.name}`;
    const label = `"${desired.category}/${desired.name}"`;
    const remote = remoteByKey.get(key);
    if (!remote) {
      note(key, `+ ${verb("created", "would create")} challenge ${label}${desired.hints.length ? `, ${desired.hints.length} hint(s)` : ""}${desired.files.length ? `, ${desired.files.length} file(s)` : ""}`);
      if (options.dryRun) continue;
      const files = [];
      for (const file of desired.files) files.push(await uploadFile(api, path.basename(file), local.get(file)!, progress));
      const created = await api.request<RemoteChallenge>("POST", "/challenges/", {
        category: categoryIds.get(desired.category),
        name: desired.name,
        ...desired.fields,
        unlock_requirements: "",
        hints: desired.hints,
        files,
      });
      ids.set(desired.name, created.id);
      remoteOf.set(key, created);
      continue;
    }
    ids.set(desired.name, remote.id);
    remoteOf.set(key, remote);
    const patch = changedFields(remote, desired.fields);
    if (Object.keys(patch).length > 0) {
      note(key, `~ ${verb("updated", "would update")} ${label}: ${Object.keys(patch).join(", ")}`);
      if (!options.dryRun) await api.request("PATCH", `/challenges/${remote.id}/`, patch);
    }

    const hints = [...remote.hints].sort((a, b) => a.id - b.id);
    for (const [index, hint] of desired.hints.entries()) {
      const have = hints[index];
      if (!have) {
        note(key, `+ ${verb("added", "would add")} hint "${hint.name}" to ${label}`);
        if (!options.dryRun) await api.request("POST", "/hints/", { challenge: remote.id, ...hint });
      } else if (have.name !== hint.name || have.penalty !== hint.penalty || have.text !== hint.text) {
        note(key, `~ ${verb("updated", "would update")} hint "${hint.name}" of ${label}`);
        if (!options.dryRun) await api.request("PATCH", `/hints/${have.id}/`, hint);
      }
    }
    for (const extra of hints.slice(desired.hints.length)) {
      note(key, `- ${verb("removed", "would remove")} hint "${extra.name}" from ${label}`);
      if (!options.dryRun) await api.request("DELETE", `/hints/${extra.id}/`);
    }

    const wanted = new Map(desired.files.map((file) => [path.basename(file), local.get(file)!]));
    for (const file of remote.files) {
      const local = wanted.get(file.name);
      if (local && (await sameFile(api, file.url, file.size, local))) {
        wanted.delete(file.name);
        continue;
      }
      note(key, `- ${verb("removed", "would remove")} file "${file.name}" from ${label}${local ? " (changed)" : ""}`);
      if (!options.dryRun) await api.request("DELETE", `/challenges/files/${file.id}/`);
    }
    for (const [name, local] of wanted) {
      note(key, `+ ${verb("uploaded", "would upload")} file "${name}" to ${label}`);
      if (options.dryRun) continue;
      const stored = await uploadFile(api, name, local, progress);
      await api.request("POST", "/challenges/files/", { challenge: remote.id, ...stored });
    }
  }

  // Unlock requirements, once every challenge of the repository has an id.
  for (const { desired } of planned) {
    const key = `${desired.category}\u0000${desired.name}`;
    const id = ids.get(desired.name);
    const required = desired.requirements.map((ref) => (typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : ids.get(ref)));
    if (id === undefined || required.some((r) => r === undefined)) continue; // dry run: not created yet
    const expression = unlockExpression(required as number[]);
    const have = (remoteOf.get(key)?.unlock_requirements ?? "").trim().split(/\s+/).join(" ");
    if (have === expression) continue;
    note(key, `~ ${verb("updated", "would update")} "${desired.category}/${desired.name}": unlock requirements`);
    if (!options.dryRun) await api.request("PATCH", `/challenges/${id}/`, { unlock_requirements: expression });
  }

  // Challenge servers: built and submitted when the job differs (a rebuilt image has a new tag).
  for (const { desired, dir } of planned) {
    if (!desired.server) continue;
    const key = `${desired.category}\u0000${desired.name}`;
    const id = ids.get(desired.name);
    const spec = await desiredJob(desired.server, dir, progress);
    const job = id === undefined ? undefined : jobs.find((j) => j.challenge_id === id);
    if (!jobDiffers(job, spec)) continue;
    note(key, `${job ? "~" : "+"} ${verb("submitted", "would submit")} challenge server "${spec.name}" (${String(spec.image)}) for "${desired.category}/${desired.name}"`);
    if (!options.dryRun && id !== undefined) await api.request("POST", "/challengeserver/submit_job/", { challenge_id: id, job_spec: spec });
  }

  if (options.prune) {
    const keep = new Set(planned.map((p) => `${p.desired.category}\u0000${p.desired.name}`));
    for (const [key, remote] of remoteByKey) {
      if (keep.has(key)) continue;
      note(key, `- ${verb("deleted", "would delete")} challenge "${key.replace("\u0000", "/")}"`);
      if (!options.dryRun) await api.request("DELETE", `/challenges/${remote.id}/`);
    }
  }

  const repository = new Set(planned.map((p) => `${p.desired.category}\u0000${p.desired.name}`));
  const changed = [...changedChallenges].filter((key) => repository.has(key)).length;
  return { changes, challenges: planned.length, changed, deleted: changedChallenges.size - changed };
}
