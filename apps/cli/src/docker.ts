import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./client.ts";
import { dockerEnv } from "./env.ts";
import type { Progress } from "./progress.ts";

/**
 * Challenge images built with the local Docker engine (the `docker` command, which follows
 * DOCKER_HOST). The tag carries the image's id, so an unchanged folder gives the same tag (and
 * the job stays as it is) while a changed one gives a new tag, which rolls the job over.
 */

function run(args: string[], onLine?: (line: string) => void): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // The classic builder prints "Step n/m", which drives the progress bar.
    const child = spawn("docker", args, { env: dockerEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let partial = "";
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      if (output.length > 200_000) output = output.slice(-100_000);
      partial += text;
      const lines = partial.split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) onLine?.(line);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (error) => reject(new CliError(`Cannot run docker: ${error.message}. Install Docker's command-line client, and set DOCKER_HOST for a remote engine.`, EXIT.usage)));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Builds `context`'s Dockerfile and tags it `repository:<id>`; answers the tag. */
export async function buildImage(context: string, repository: string, progress: Progress): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "flagship-build-"));
  const idFile = path.join(dir, "id");
  const bar = progress.bar(`build ${repository}`, 1);
  try {
    const built = await run(["build", "--iidfile", idFile, "--pull=false", context], (line) => {
      const step = /^Step (\d+)\/(\d+)/.exec(line);
      if (step) bar.update(Number(step[1]) - 1, Number(step[2]));
    });
    if (built.code !== 0) {
      const tail = built.output.trim().split("\n").slice(-8).join("\n");
      throw new CliError(`Building ${context} failed:\n${tail}`, EXIT.problems);
    }
    const id = (await readFile(idFile, "utf8")).trim().replace(/^sha256:/, "");
    const tag = `${repository}:${id.slice(0, 12)}`;
    const tagged = await run(["tag", id, tag]);
    if (tagged.code !== 0) throw new CliError(`Tagging ${tag} failed: ${tagged.output.trim()}`, EXIT.server);
    bar.finish();
    return tag;
  } finally {
    bar.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
