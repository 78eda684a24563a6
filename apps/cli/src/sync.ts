import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ZCategoryInput, ZCreateChallengeInput, ZJobSpec } from "@flagship/shared";
import { type Api, CliError, EXIT } from "./client.ts";
import { buildImage } from "./docker.ts";
import { exposedPort, mapChallenge, OWNED_METADATA_KEYS, playerFileNames, uploadNameOf, type DesiredChallenge, type DesiredServer } from "./mapping.ts";
import type { Progress } from "./progress.ts";
import { type RemoteCategory, type RemoteChallenge, type RemoteFile, type RemoteJob, sameJson } from "./remote.ts";
import { loadRepository, type LocalFile, type Problem } from "./spec.ts";

export interface SyncOptions {
  dryRun: boolean;
  prune: boolean;
  /** The repository's name on the server (repositorySource): what the sync owns. */
  source: string;
  /** Delete what --prune would without asking. */
  yes: boolean;
  /** Asks a person a yes-or-no question; absent when there is no terminal to ask on. */
  confirm?: (question: string) => Promise<boolean>;
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
  "source",
  "scheduled_at",
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
    const have = key === "attempt_limit" || key === "scheduled_at" ? (remote[key] ?? null) : key === "source" ? (remote.source ?? "") : remote[key];
    if (!sameJson(have, want)) patch[key] = want;
  }
  return patch;
}

/** A hint as the server takes it: its requirements are set once every hint has an id. */
const hintBody = ({ name, penalty, text }: DesiredChallenge["hints"][number]) => ({ name, penalty, text });

/** CTFd's prerequisites are all required: "a b AND c AND". */
export function unlockExpression(ids: readonly number[]): string {
  return ids.map((id, i) => (i === 0 ? String(id) : `${id} AND`)).join(" ");
}

/** A file's SHA-256, read as a stream: a file of gigabytes is never held in memory. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function sameFile(api: Api, url: string, size: number, local: LocalFile): Promise<boolean> {
  if (local.size !== size) return false;
  const [remote, mine] = await Promise.all([api.downloadHash(url), sha256Of(local.path)]);
  return remote === mine;
}

/** Uploads the file an entry of `files` resolved to, under the entry's own name (not the name a link leads to). */
async function uploadFile(api: Api, name: string, local: LocalFile, progress: Progress): Promise<{ name: string; url: string; size: number }> {
  const { size } = local;
  const bar = progress.bytes(`upload ${name}`, size);
  try {
    const stored = await api.upload(uploadNameOf(name), size, createReadStream(local.path), (n) => bar.increment(n));
    bar.finish();
    // Players see the name that tells it from the challenge's other files (a folder kept when two share a name).
    return { ...stored, name };
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

const MB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(bytes % MB === 0 ? 0 : 1)} MB` : `${bytes} bytes`);

/**
 * Everything the server will check, checked before anything is written: each challenge as it will
 * be sent against the server's own schema (the shared one), category names, file sizes against
 * the upload limit the server reports, requirements by id against the server's challenges, and a
 * port for every challenge server. Throws (exit 1) with every problem found.
 */
function checkAgainstServer(planned: readonly Planned[], remoteIds: ReadonlySet<number>, maxUpload: number | null): void {
  const problems: Problem[] = [];
  for (const { desired, file, local } of planned) {
    const label = `"${desired.category}/${desired.name}"`;
    const problem = (line: number, message: string) => problems.push({ file, line, message, severity: "error" });
    const category = ZCategoryInput.safeParse({ name: desired.category });
    if (!category.success) problem(1, `category: ${category.error.issues[0]!.message} (the server would refuse ${label})`);
    const body = {
      category: 1,
      name: desired.name,
      ...desired.fields,
      hints: desired.hints.map(hintBody),
      files: [...playerFileNames(desired.files)].map(([entry, name]) => ({ name, url: "/files/0/0", size: local.get(entry)!.size })),
    };
    const parsed = ZCreateChallengeInput.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problem(1, `${issue.path.join(".")}: ${issue.message} (the server would refuse ${label})`);
    }
    for (const [name, found] of local) {
      if (maxUpload !== null && found.size > maxUpload) {
        problem(found.line, `files: "${name}" of ${label} is ${sizeText(found.size)}, over the server's upload limit of ${sizeText(maxUpload)}.`);
      }
    }
    for (const ref of desired.requirements) {
      const id = typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : null;
      if (id !== null && !remoteIds.has(id)) problem(1, `requirements: ${label} requires challenge ${id}, which the server does not have.`);
    }
    const next = desired.next;
    const nextId = typeof next === "number" ? next : typeof next === "string" && /^\d+$/.test(next) ? Number(next) : null;
    if (nextId !== null && !remoteIds.has(nextId)) problem(1, `next: ${label} suggests challenge ${nextId}, which the server does not have.`);
  }
  if (problems.length > 0) throw new CliError(`${formatProblems(problems).join("\n")}\n${problems.length} problem(s); nothing was changed.`, EXIT.problems);
}

/**
 * A challenge of the same name that another repository made stays that repository's: the sync
 * says whose it is rather than overwriting it. One made otherwise (by hand, or by a sync before
 * challenges recorded their repository) becomes this repository's.
 */
function checkOwnership(planned: readonly Planned[], remoteByKey: ReadonlyMap<string, RemoteChallenge>, source: string): void {
  const problems: Problem[] = [];
  for (const { desired, file } of planned) {
    const owner = remoteByKey.get(`${desired.category}\u0000${desired.name}`)?.source ?? "";
    if (owner !== "" && owner !== source) {
      problems.push({ file, line: 1, message: `"${desired.category}/${desired.name}" is already repository "${owner}"'s; it is left as it is. Rename it here, or change it from that repository.`, severity: "error" });
    }
  }
  if (problems.length > 0) throw new CliError(`${formatProblems(problems).join("\n")}\n${problems.length} problem(s); nothing was changed.`, EXIT.problems);
}

/** The challenge servers' jobs as they will be submitted, against the server's schema and the jobs it has. */
function checkJobs(jobSpecs: ReadonlyMap<Planned, Record<string, unknown>>, remoteByKey: ReadonlyMap<string, RemoteChallenge>, jobs: readonly RemoteJob[]): void {
  const problems: Problem[] = [];
  for (const [{ desired, file }, spec] of jobSpecs) {
    const label = `"${desired.category}/${desired.name}"`;
    const problem = (message: string) => problems.push({ file, line: 1, message, severity: "error" });
    const parsed = ZJobSpec.safeParse(spec);
    if (!parsed.success) for (const issue of parsed.error.issues) problem(`flagship.server: ${issue.path.join(".")}: ${issue.message} (the server would refuse the job of ${label})`);
    const own = remoteByKey.get(`${desired.category}\u0000${desired.name}`)?.id;
    const other = jobs.find((job) => job.name === spec.name && job.challenge_id !== own);
    if (other) problem(`flagship.server: the job name "${String(spec.name)}" of ${label} is already challenge ${other.challenge_id}'s.`);
    if (spec.flag_env !== undefined && desired.fields.flag_type !== "dynamic") problem(`flagship.server.flag_env: only a challenge with per-team (dynamic) flags can hand each team its flag (${label}).`);
  }
  if (problems.length > 0) throw new CliError(`${formatProblems(problems).join("\n")}\n${problems.length} problem(s); nothing was changed.`, EXIT.problems);
}

/** One write of this run and how to take it back (null: it cannot be, such as a deletion). */
interface Undo {
  what: string;
  run: (() => Promise<unknown>) | null;
}

/**
 * Makes the server's challenges what the repository says: categories by name, challenges by name
 * within their category, then hints, files, unlock requirements (once every challenge has an id)
 * and challenge servers. Only what differs is written, so a second run writes nothing.
 *
 * A run is all or nothing. Everything the server will check is checked first; files are uploaded
 * and images built before the event changes (an upload is attached to nothing until a challenge
 * names it); then the writes, each remembered with its inverse. If the server refuses one midway,
 * the writes already made are undone in reverse order, so the event is as it was. A line is
 * printed only once its write succeeded.
 */
export async function syncRepository(api: Api, root: string, options: SyncOptions, progress: Progress, log: (line: string) => void): Promise<SyncSummary> {
  const planned = await loadPlanned(root, log);
  // A dry run writes nothing, so it takes no lease; a sync holds the event's one lease from its
  // first read to its last write, so that what it read is still true when it writes.
  if (options.dryRun) return await syncPlanned(api, planned, options, progress, log, () => undefined);
  const lease = await api.request<{ token: string }>("POST", "/challenges/sync/lease/", { holder: `${path.basename(root)} from ${os.hostname()}` });
  let lost: unknown = null;
  const renewal = setInterval(() => {
    api.request("PATCH", "/challenges/sync/lease/", { token: lease.token }).catch((error: unknown) => (lost ??= error));
  }, RENEW_EVERY_MS);
  try {
    return await syncPlanned(api, planned, options, progress, log, () => {
      if (lost) throw lost;
    });
  } finally {
    clearInterval(renewal);
    await api.request("DELETE", "/challenges/sync/lease/", { token: lease.token }).catch(() => undefined);
  }
}

/** How often a running sync renews its lease: well within the server's two minutes. */
const RENEW_EVERY_MS = 30_000;

async function syncPlanned(
  api: Api,
  planned: Planned[],
  options: SyncOptions,
  progress: Progress,
  log: (line: string) => void,
  /** Throws once the sync's lease is lost, before its next write. */
  assertLease: () => void,
): Promise<SyncSummary> {
  const [categories, jobs, maxUpload] = await Promise.all([
    api.get<RemoteCategory[]>("/challenges/categories/"),
    api.get<RemoteJob[]>("/challengeserver/jobs/"),
    api.uploadLimit(),
  ]);
  const remoteByKey = new Map<string, RemoteChallenge>();
  for (const category of categories) for (const challenge of category.challenges) remoteByKey.set(`${category.name}\u0000${challenge.name}`, challenge);
  for (const { desired } of planned) desired.fields.source = options.source;
  checkOwnership(planned, remoteByKey, options.source);
  checkAgainstServer(planned, new Set([...remoteByKey.values()].map((c) => c.id)), maxUpload);
  // --prune deletes only what this repository made and no longer has; a person says yes first.
  const keep = new Set(planned.map((p) => `${p.desired.category}\u0000${p.desired.name}`));
  const doomed = options.prune ? [...remoteByKey].filter(([key, remote]) => !keep.has(key) && remote.source === options.source) : [];
  if (doomed.length > 0 && !options.dryRun && !options.yes) {
    const list = doomed.map(([key]) => `  "${key.replace("\u0000", "/")}"`).join("\n");
    const question = `--prune will delete ${doomed.length} challenge(s) that repository "${options.source}" made and no longer has, with their solves:\n${list}`;
    if (!options.confirm) throw new CliError(`${question}\nThere is no terminal to ask on: give --yes to delete them. Nothing was changed.`, EXIT.usage);
    if (!(await options.confirm(`${question}\nDelete them? [y/N] `))) throw new CliError("Nothing was deleted or changed.", EXIT.problems);
  }

  const changes: string[] = [];
  const changedChallenges = new Set<string>();
  const verb = (done: string, would: string) => (options.dryRun ? would : done);
  const note = (key: string | null, line: string) => {
    if (key !== null) changedChallenges.add(key);
    changes.push(line);
    log(line);
  };
  const undos: Undo[] = [];
  /** Runs one write (none in a dry run), remembers its inverse, then prints its line. */
  const write = async <T>(key: string | null, line: string, action: () => Promise<T>, undo: (result: T) => Undo): Promise<T | undefined> => {
    if (options.dryRun) {
      note(key, line);
      return undefined;
    }
    assertLease();
    const result = await action();
    undos.push(undo(result));
    note(key, line);
    return result;
  };

  // Before the event changes: the challenge servers' images and jobs, which files differ, and their uploads.
  const jobSpecs = new Map<Planned, Record<string, unknown>>();
  for (const item of planned) if (item.desired.server) jobSpecs.set(item, await desiredJob(item.desired.server, item.dir, progress));
  checkJobs(jobSpecs, remoteByKey, jobs);
  const uploads = new Map<Planned, { remove: RemoteFile[]; add: { name: string; stored: { name: string; url: string; size: number } | null }[] }>();
  for (const item of planned) {
    const remote = remoteByKey.get(`${item.desired.category}\u0000${item.desired.name}`);
    const wanted = new Map([...playerFileNames(item.desired.files)].map(([entry, name]) => [name, item.local.get(entry)!]));
    const remove: RemoteFile[] = [];
    for (const file of remote?.files ?? []) {
      const local = wanted.get(file.name);
      if (local && (await sameFile(api, file.url, file.size, local))) wanted.delete(file.name);
      else remove.push(file);
    }
    const add = [];
    for (const [name, local] of wanted) add.push({ name, stored: options.dryRun ? null : await uploadFile(api, name, local, progress) });
    uploads.set(item, { remove, add });
  }

  try {
    await applyWrites();
  } catch (error) {
    if (options.dryRun || undos.length === 0) throw error;
    const failed: string[] = [];
    for (const undo of undos.reverse()) {
      try {
        if (!undo.run) throw new Error("not undoable");
        await undo.run();
      } catch {
        failed.push(undo.what);
      }
    }
    const reason = error instanceof Error ? error.message : String(error);
    if (failed.length === 0) throw new CliError(`${reason}\nThe sync stopped there; the ${undos.length} change(s) it had made were undone, so the event is as it was.`, EXIT.server);
    throw new CliError(`${reason}\nThe sync stopped there and could not undo everything it had made; still to undo by hand:\n${failed.map((w) => `  ${w}`).join("\n")}`, EXIT.server);
  }

  async function applyWrites(): Promise<void> {
    const categoryIds = new Map(categories.map((c) => [c.name, c.id]));
    // Categories first: every challenge needs its category's id.
    for (const name of new Set(planned.map((p) => p.desired.category))) {
      if (categoryIds.has(name)) continue;
      const created = await write(
        null,
        `+ ${verb("created", "would create")} category "${name}"`,
        () => api.request<{ id: number }>("POST", "/challenges/categories/", { name }),
        (made) => ({ what: `delete category "${name}" (${made.id})`, run: () => api.request("DELETE", `/challenges/categories/${made.id}/`) }),
      );
      if (created) categoryIds.set(name, created.id);
    }

    // Challenges, their hints and files.
    const ids = new Map<string, number>();
    const remoteOf = new Map<string, RemoteChallenge>();
    /** Each challenge's hints' ids, in the file's order (unknown in a dry run). */
    const hintIds = new Map<string, (number | undefined)[]>();
    for (const item of planned) {
      const { desired } = item;
      const key = `${desired.category}\u0000${desired.name}`;
      const label = `"${desired.category}/${desired.name}"`;
      const remote = remoteByKey.get(key);
      const files = uploads.get(item)!;
      if (!remote) {
        const created = await write(
          key,
          `+ ${verb("created", "would create")} challenge ${label}${desired.hints.length ? `, ${desired.hints.length} hint(s)` : ""}${desired.files.length ? `, ${desired.files.length} file(s)` : ""}`,
          () =>
            api.request<RemoteChallenge>("POST", "/challenges/", {
              category: categoryIds.get(desired.category),
              name: desired.name,
              ...desired.fields,
              unlock_requirements: "",
              hints: desired.hints.map(hintBody),
              files: files.add.map((f) => f.stored!),
            }),
          (made) => ({ what: `delete challenge ${label} (${made.id})`, run: () => api.request("DELETE", `/challenges/${made.id}/`) }),
        );
        if (created) {
          ids.set(desired.name, created.id);
          remoteOf.set(key, created);
          hintIds.set(key, [...created.hints].sort((a, b) => a.id - b.id).map((h) => h.id));
        }
        continue;
      }
      ids.set(desired.name, remote.id);
      remoteOf.set(key, remote);
      const patch = changedFields(remote, desired.fields);
      if (Object.keys(patch).length > 0) {
        const before = Object.fromEntries(
          Object.keys(patch).map((field) => [field, field === "attempt_limit" || field === "scheduled_at" ? (remote[field] ?? null) : remote[field as keyof RemoteChallenge]]),
        );
        await write(
          key,
          `~ ${verb("updated", "would update")} ${label}: ${Object.keys(patch).join(", ")}`,
          () => api.request("PATCH", `/challenges/${remote.id}/`, patch),
          () => ({ what: `restore ${Object.keys(patch).join(", ")} of ${label}`, run: () => api.request("PATCH", `/challenges/${remote.id}/`, before) }),
        );
      }

      const hints = [...remote.hints].sort((a, b) => a.id - b.id);
      const order: (number | undefined)[] = [];
      hintIds.set(key, order);
      for (const [index, hint] of desired.hints.entries()) {
        const have = hints[index];
        if (have) order.push(have.id);
        if (!have) {
          const made = await write(
            key,
            `+ ${verb("added", "would add")} hint "${hint.name}" to ${label}`,
            () => api.request<{ id: number }>("POST", "/hints/", { challenge: remote.id, ...hintBody(hint) }),
            (made) => ({ what: `delete hint "${hint.name}" of ${label}`, run: () => api.request("DELETE", `/hints/${made.id}/`) }),
          );
          order.push(made?.id);
        } else if (have.name !== hint.name || have.penalty !== hint.penalty || have.text !== hint.text) {
          await write(
            key,
            `~ ${verb("updated", "would update")} hint "${hint.name}" of ${label}`,
            () => api.request("PATCH", `/hints/${have.id}/`, hintBody(hint)),
            () => ({ what: `restore hint "${have.name}" of ${label}`, run: () => api.request("PATCH", `/hints/${have.id}/`, { name: have.name, penalty: have.penalty, text: have.text }) }),
          );
        }
      }
      for (const extra of hints.slice(desired.hints.length)) {
        await write(
          key,
          `- ${verb("removed", "would remove")} hint "${extra.name}" from ${label}`,
          () => api.request("DELETE", `/hints/${extra.id}/`),
          () => ({ what: `add hint "${extra.name}" back to ${label}`, run: () => api.request("POST", "/hints/", { challenge: remote.id, name: extra.name, penalty: extra.penalty, text: extra.text }) }),
        );
      }

      const adding = new Set(files.add.map((f) => f.name));
      for (const file of files.remove) {
        await write(
          key,
          `- ${verb("removed", "would remove")} file "${file.name}" from ${label}${adding.has(file.name) ? " (changed)" : ""}`,
          () => api.request("DELETE", `/challenges/files/${file.id}/`),
          () => ({ what: `attach file "${file.name}" (${file.url}) to ${label} again`, run: () => api.request("POST", "/challenges/files/", { challenge: remote.id, name: file.name, url: file.url, size: file.size }) }),
        );
      }
      for (const { name, stored } of files.add) {
        await write(
          key,
          `+ ${verb("uploaded", "would upload")} file "${name}" to ${label}`,
          () => api.request<{ id: number }>("POST", "/challenges/files/", { challenge: remote.id, ...stored! }),
          (made) => ({ what: `remove file "${name}" from ${label}`, run: () => api.request("DELETE", `/challenges/files/${made.id}/`) }),
        );
      }
    }

    // Hint requirements, once every hint has an id.
    for (const { desired } of planned) {
      const key = `${desired.category}\u0000${desired.name}`;
      const order = hintIds.get(key);
      if (!order) continue; // dry run: not created yet
      const remoteHints = new Map((remoteOf.get(key)?.hints ?? []).map((h) => [h.id, h]));
      for (const [index, hint] of desired.hints.entries()) {
        const id = order[index];
        const wanted = hint.requires.map((at) => order[at]);
        if (id === undefined || wanted.some((w) => w === undefined)) continue;
        const had = remoteHints.get(id)?.requirements ?? [];
        if ([...had].sort().join() === [...(wanted as number[])].sort().join()) continue;
        await write(
          key,
          `~ ${verb("updated", "would update")} hint "${hint.name}" of "${desired.category}/${desired.name}": requirements`,
          () => api.request("PATCH", `/hints/${id}/`, { requirements: wanted }),
          () => ({ what: `restore the requirements of hint "${hint.name}" of "${desired.category}/${desired.name}"`, run: () => api.request("PATCH", `/hints/${id}/`, { requirements: had }) }),
        );
      }
    }

    // Unlock requirements, once every challenge of the repository has an id.
    for (const { desired } of planned) {
      const key = `${desired.category}\u0000${desired.name}`;
      const id = ids.get(desired.name);
      const required = desired.requirements.map((ref) => (typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : ids.get(ref)));
      if (id === undefined || required.some((r) => r === undefined)) continue; // dry run: not created yet
      const expression = unlockExpression(required as number[]);
      const had = remoteOf.get(key)?.unlock_requirements ?? "";
      if (had.trim().split(/\s+/).join(" ") === expression) continue;
      await write(
        key,
        `~ ${verb("updated", "would update")} "${desired.category}/${desired.name}": unlock requirements`,
        () => api.request("PATCH", `/challenges/${id}/`, { unlock_requirements: expression }),
        () => ({ what: `restore the unlock requirements of "${desired.category}/${desired.name}"`, run: () => api.request("PATCH", `/challenges/${id}/`, { unlock_requirements: had }) }),
      );
    }

    // The challenge suggested next, likewise once every challenge has an id.
    for (const { desired } of planned) {
      const key = `${desired.category}\u0000${desired.name}`;
      const id = ids.get(desired.name);
      const ref = desired.next;
      const next = ref === null ? null : typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : ids.get(ref);
      if (id === undefined || next === undefined) continue; // dry run: not created yet
      const had = remoteOf.get(key)?.next_challenge ?? null;
      if (had === next) continue;
      await write(
        key,
        `~ ${verb("updated", "would update")} "${desired.category}/${desired.name}": next`,
        () => api.request("PATCH", `/challenges/${id}/`, { next_challenge: next }),
        () => ({ what: `restore the next challenge of "${desired.category}/${desired.name}"`, run: () => api.request("PATCH", `/challenges/${id}/`, { next_challenge: had }) }),
      );
    }

    // Challenge servers, last: submitted when the job differs (a rebuilt image has a new tag).
    for (const [item, spec] of jobSpecs) {
      const { desired } = item;
      const key = `${desired.category}\u0000${desired.name}`;
      const id = ids.get(desired.name);
      const job = id === undefined ? undefined : jobs.find((j) => j.challenge_id === id);
      if (!jobDiffers(job, spec)) continue;
      const line = `${job ? "~" : "+"} ${verb("submitted", "would submit")} challenge server "${String(spec.name)}" (${String(spec.image)}) for "${desired.category}/${desired.name}"`;
      if (id === undefined) note(key, line);
      else await write(key, line, () => api.request("POST", "/challengeserver/submit_job/", { challenge_id: id, job_spec: spec }), () => ({ what: `the job submitted for "${desired.category}/${desired.name}"`, run: null }));
    }

    // Deletions last: they cannot be undone, so everything else has been written first.
    for (const [key, remote] of doomed) {
      const label = `"${key.replace("\u0000", "/")}"`;
      await write(key, `- ${verb("deleted", "would delete")} challenge ${label}`, () => api.request("DELETE", `/challenges/${remote.id}/`), () => ({ what: `challenge ${label}, deleted`, run: null }));
    }
  }

  const repository = new Set(planned.map((p) => `${p.desired.category}\u0000${p.desired.name}`));
  const changed = [...changedChallenges].filter((key) => repository.has(key)).length;
  return { changes, challenges: planned.length, changed, deleted: changedChallenges.size - changed };
}
