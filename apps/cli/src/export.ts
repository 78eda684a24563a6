import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { type Api, CliError, EXIT } from "./client.ts";
import { jobNameOf, NO_FLAG_PATTERN, OWNED_METADATA_KEYS } from "./mapping.ts";
import type { RemoteCategory, RemoteChallenge, RemoteJob } from "./remote.ts";
import { EXTENSION_KEY } from "./spec.ts";

/**
 * A running event's challenges as a repository of challenge files (files downloaded beside them),
 * written so that syncing it into an empty event makes the same challenges.
 */

/** A folder name: lower-case words joined by dashes. */
function folderName(name: string, taken: Set<string>): string {
  const base = jobNameOf(name);
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}-${n}`;
  taken.add(candidate);
  return candidate;
}

/** A flag of CTFd's kinds when it is one; otherwise Flagship's own under the extension key. */
function flagsOf(challenge: RemoteChallenge): { flags?: unknown[]; ext?: { type: string; metadata: Record<string, unknown> } } {
  const { flag, decay_function: _fn, decay: _decay, min_points: _min, ...rest } = challenge.flag_metadata ?? {};
  const plain = typeof flag === "string" && Object.keys(rest).length === 0;
  if (challenge.flag_type === "plaintext" && plain) return { flags: [flag] };
  if (challenge.flag_type === "regex" && plain) return { flags: flag === NO_FLAG_PATTERN ? [] : [{ type: "regex", content: flag }] };
  const metadata = { ...challenge.flag_metadata };
  delete metadata.decay_function;
  delete metadata.decay;
  delete metadata.min_points;
  return { ext: { type: challenge.flag_type, metadata } };
}

export function challengeFile(challenge: RemoteChallenge, category: string, names: Map<number, string>, job: RemoteJob | undefined, files: string[]): Record<string, unknown> {
  const meta = challenge.challenge_metadata ?? {};
  const flagMeta = challenge.flag_metadata ?? {};
  const { flags, ext: flagExt } = flagsOf(challenge);
  const ctfdDecay = challenge.points_type === "decay" && (flagMeta.decay_function === "linear" || flagMeta.decay_function === "logarithmic");
  const ext: Record<string, unknown> = {};
  if (flagExt) ext.flag = flagExt;
  if (challenge.challenge_type !== "default") ext.challenge_type = challenge.challenge_type;
  const otherMeta = Object.fromEntries(Object.entries(meta).filter(([key]) => !OWNED_METADATA_KEYS.includes(key) && key !== "cserv_name"));
  if (Object.keys(otherMeta).length > 0) ext.challenge_metadata = otherMeta;
  if (typeof meta.x === "number" && typeof meta.y === "number") ext.position = { x: meta.x, y: meta.y };
  if (!challenge.tiebreaker) ext.tiebreaker = false;
  if (challenge.maintenance) ext.maintenance = true;
  if (challenge.post_score_explanation) ext.post_score_explanation = challenge.post_score_explanation;
  if (challenge.points_type === "decay" && !ctfdDecay) {
    throw new CliError(`"${challenge.name}" decays with Flagship's own decay constant, which a challenge file cannot express; switch it to CTFd's linear or logarithmic decay first.`, EXIT.problems);
  }
  if (job) {
    ext.server = {
      name: job.name,
      port: job.port,
      replicas: job.replicas,
      per_team: job.dedicated,
      memory: job.resources.memory,
      cpus: job.resources.cpus,
      lifetime: job.lifetime,
      ...(job.flag_env && { flag_env: job.flag_env }),
      ...(Object.keys(job.env).length > 0 && { env: job.env }),
    };
  }
  const required = challenge.unlock_requirements
    .trim()
    .split(/\s+/)
    .filter((token) => /^\d+$/.test(token))
    .map((id) => names.get(Number(id)) ?? Number(id));
  const hasOperatorsOtherThanAnd = /\bOR\b/.test(challenge.unlock_requirements);
  if (hasOperatorsOtherThanAnd) throw new CliError(`"${challenge.name}" unlocks with OR, which CTFd's requirements (all of a list) cannot express.`, EXIT.problems);
  const tags = challenge.tags.filter((t) => t.type !== "topic").map((t) => t.text);
  const topics = challenge.tags.filter((t) => t.type === "topic").map((t) => t.text);
  return {
    name: challenge.name,
    category,
    ...(challenge.author && { author: challenge.author }),
    description: challenge.description,
    ...(typeof meta.attribution === "string" && { attribution: meta.attribution }),
    ...(ctfdDecay
      ? { type: "dynamic", extra: { initial: challenge.score, decay: flagMeta.decay, minimum: flagMeta.min_points, function: flagMeta.decay_function } }
      : { type: "standard", value: challenge.score }),
    ...(typeof meta.connection_info === "string" && { connection_info: meta.connection_info }),
    ...(typeof meta.protocol === "string" && { protocol: meta.protocol }),
    ...(typeof meta.host === "string" && { host: meta.host }),
    ...(challenge.attempt_limit ? { attempts: challenge.attempt_limit } : {}),
    ...(flags && flags.length > 0 && { flags }),
    ...(tags.length > 0 && { tags }),
    ...(topics.length > 0 && { topics }),
    ...(files.length > 0 && { files }),
    ...(challenge.hints.length > 0 && {
      hints: [...challenge.hints].sort((a, b) => a.id - b.id).map((h) => ({ title: h.name, content: h.text, cost: h.penalty })),
    }),
    ...(required.length > 0 && { requirements: required }),
    state: challenge.hidden ? "hidden" : "visible",
    ...(challenge.scheduled_at && { scheduled_at: challenge.scheduled_at }),
    ...(challenge.next_challenge && { next: names.get(challenge.next_challenge) ?? challenge.next_challenge }),
    ...(job && { image: job.image }),
    version: "0.1",
    ...(Object.keys(ext).length > 0 && { [EXTENSION_KEY]: ext }),
  };
}

export async function exportEvent(api: Api, root: string, log: (line: string) => void): Promise<number> {
  try {
    if ((await readdir(root)).length > 0) throw new CliError(`${root} is not empty: export into a new folder.`, EXIT.usage);
  } catch (error) {
    if (error instanceof CliError) throw error;
  }
  const categories = await api.get<RemoteCategory[]>("/challenges/categories/");
  const jobs = await api.get<RemoteJob[]>("/challengeserver/jobs/");
  const names = new Map(categories.flatMap((c) => c.challenges.map((ch) => [ch.id, ch.name] as const)));
  const folders = new Set<string>();
  let count = 0;
  for (const category of categories) {
    const categoryDir = path.join(root, folderName(category.name, folders));
    const inCategory = new Set<string>();
    for (const challenge of category.challenges) {
      const dir = path.join(categoryDir, folderName(challenge.name, inCategory));
      await mkdir(dir, { recursive: true });
      const files: string[] = [];
      const fileNames = new Set<string>();
      for (const file of challenge.files) {
        // Files elsewhere (an http link) are left out: a sync uploads files from the repository.
        if (!file.url.startsWith("/files/")) {
          log(`! "${challenge.name}": file "${file.name}" links to ${file.url}, which is not exported.`);
          continue;
        }
        let name = file.name;
        for (let n = 2; fileNames.has(name); n += 1) name = `${n}-${file.name}`;
        fileNames.add(name);
        await mkdir(path.join(dir, "files"), { recursive: true });
        await writeFile(path.join(dir, "files", name), await api.download(file.url));
        files.push(`files/${name}`);
      }
      const job = jobs.find((j) => j.challenge_id === challenge.id);
      const data = challengeFile(challenge, category.name, names, job, files);
      await writeFile(path.join(dir, "challenge.yml"), stringify(data, { lineWidth: 0 }));
      count += 1;
    }
  }
  log(`Exported ${count} challenge(s) in ${categories.length} categor${categories.length === 1 ? "y" : "ies"} to ${root}.`);
  return count;
}
