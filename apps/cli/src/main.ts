import { stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { Command, CommanderError } from "commander";
import { CliError, connect, EXIT } from "./client.ts";
import { exportEvent } from "./export.ts";
import { Progress } from "./progress.ts";
import { repositorySource } from "./source.ts";
import { loadRepository } from "./spec.ts";
import { formatProblems, syncRepository } from "./sync.ts";

const out = (line: string) => process.stdout.write(`${line}\n`);

async function requireDir(dir: string): Promise<string> {
  const resolved = path.resolve(dir);
  const info = await stat(resolved).catch(() => null);
  if (!info?.isDirectory()) throw new CliError(`${dir} is not a folder.`, EXIT.usage);
  return resolved;
}

/** Asks on the terminal; only "y" or "yes" is a yes. */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

const program = new Command()
  .name("flagship")
  .description("Flagship's command-line tool for staff: challenges as code, over the server's REST API.")
  .showHelpAfterError()
  .exitOverride();

const challenge = program.command("challenge").description("Challenge files (CTFd's challenge.yml).");

challenge
  .command("lint")
  .description("Check every challenge.yml below DIR; prints each problem with its file and line, exits 1 if any is an error.")
  .argument("<dir>", "the repository folder")
  .action(async (dir: string) => {
    const loaded = await loadRepository(await requireDir(dir));
    if (loaded.length === 0) throw new CliError(`No challenge.yml (or challenge.yaml) below ${dir}.`, EXIT.problems);
    const problems = loaded.flatMap((c) => c.problems);
    for (const line of formatProblems(problems)) out(line);
    const errors = problems.filter((p) => p.severity === "error").length;
    const warnings = problems.length - errors;
    out(`${loaded.length} challenge file(s): ${errors} error(s), ${warnings} warning(s).`);
    if (errors > 0) process.exitCode = EXIT.problems;
  });

challenge
  .command("sync")
  .description("Create or update the server's categories, challenges, hints, files, unlocks and challenge servers from DIR.")
  .argument("<dir>", "the repository folder")
  .option("--url <url>", "the server's address (default: FLAGSHIP_URL)")
  .option("--dry-run", "print what would change without writing anything", false)
  .option("--prune", "also delete the challenges this repository made and no longer has (asks first)", false)
  .option("--yes", "delete what --prune would without asking (needed when there is no terminal, as in CI)", false)
  .option("--source <name>", "the repository's name on the server (default: its git remote, or the folder's name)")
  .action(async (dir: string, options: { url?: string; dryRun: boolean; prune: boolean; yes: boolean; source?: string }) => {
    const root = await requireDir(dir);
    const api = connect(options);
    const source = options.source?.trim() || (await repositorySource(root));
    const progress = new Progress();
    try {
      const summary = await syncRepository(api, root, { dryRun: options.dryRun, prune: options.prune, yes: options.yes, source, ...(process.stdin.isTTY && process.stdout.isTTY && { confirm }) }, progress, out);
      const touched = summary.changed + summary.deleted;
      const unchanged = summary.challenges - summary.changed;
      if (summary.changes.length === 0) out(`Nothing to change: ${summary.challenges} challenge(s) up to date.`);
      else if (options.dryRun) out(`Dry run: ${summary.changes.length} change(s) to ${touched} challenge(s) would be made; nothing was written.`);
      else out(`Done: ${summary.changes.length} change(s) to ${touched} challenge(s); ${unchanged} unchanged.`);
    } finally {
      progress.stop();
    }
  });

program
  .command("event")
  .description("The event as a whole.")
  .command("export")
  .description("Write the event's challenges (files included) to DIR as a repository of challenge.yml files.")
  .argument("<dir>", "a new or empty folder")
  .option("--url <url>", "the server's address (default: FLAGSHIP_URL)")
  .action(async (dir: string, options: { url?: string }) => {
    const api = connect(options);
    await exportEvent(api, path.resolve(dir), out);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; a usage mistake (already printed by commander) exits 2.
    process.exitCode = error.exitCode === 0 ? 0 : EXIT.usage;
  } else if (error instanceof CliError) {
    process.stderr.write(`flagship: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`flagship: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 70;
  }
}
