import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function git(dir: string, args: string[]): Promise<string | null> {
  try {
    return (await run("git", ["-C", dir, ...args], { encoding: "utf8" })).stdout.trim();
  } catch {
    return null;
  }
}

/**
 * The name a repository's challenges carry on the server, so that a sync prunes and updates only
 * its own: the git remote it was cloned from (without any credentials in it), followed by the
 * folder inside the checkout when it is not the top, so a clone in CI and one on a laptop agree.
 * Without a remote, the folder's name. `--source` overrides it.
 */
export async function repositorySource(root: string): Promise<string> {
  const remote = await git(root, ["config", "--get", "remote.origin.url"]);
  if (!remote) return path.basename(root);
  const url = remote.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1").replace(/\.git$/, "");
  const prefix = ((await git(root, ["rev-parse", "--show-prefix"])) ?? "").replace(/\/+$/, "");
  return prefix ? `${url}/${prefix}` : url;
}
