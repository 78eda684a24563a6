import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { JEMALLOC_CONF, JEMALLOC_PATHS, serverEnv } from "../../../scripts/server-flags.mjs";
import { keepAllocatorToSelf } from "./env.ts";

const run = promisify(execFile);
const JEMALLOC = JEMALLOC_PATHS[0]!;

describe("the server's memory allocator", () => {
  it("is jemalloc where the machine has it, unless the operator preloads their own or asks for the system's", () => {
    const has = (path: string) => path === JEMALLOC;
    expect(serverEnv({}, has)).toEqual({ LD_PRELOAD: JEMALLOC, FLAGSHIP_ALLOCATOR: "jemalloc", MALLOC_CONF: JEMALLOC_CONF });
    expect(serverEnv({ MALLOC_CONF: "narenas:2" }, has)).toEqual({ LD_PRELOAD: JEMALLOC, FLAGSHIP_ALLOCATOR: "jemalloc", MALLOC_CONF: "narenas:2" });
    expect(serverEnv({ LD_PRELOAD: "/opt/own.so" }, has)).toEqual({});
    expect(serverEnv({ FLAGSHIP_ALLOCATOR: "system" }, has)).toEqual({});
    expect(serverEnv({}, () => false)).toEqual({});
  });

  it("is loaded into the server process by npm start's environment (Debian's libjemalloc2, which redis-server brings)", async () => {
    const env = serverEnv();
    // The test machines install redis-server, and with it libjemalloc2.
    expect(env.LD_PRELOAD).toBeDefined();
    const { stdout } = await run(process.execPath, ["-e", "process.stdout.write(require('fs').readFileSync('/proc/self/maps', 'utf8'))"], {
      env: { ...process.env, ...env },
    });
    expect(stdout).toContain("libjemalloc");
  });

  it("keeps a password hash's 19 MiB block in its ordinary arenas (a login costs about 34 ms, not 118)", async () => {
    const env = serverEnv();
    // jemalloc prints the settings it runs with when asked to; a setting it does not know is an error there.
    const { stderr, stdout } = await run("/bin/true", [], { env: { ...process.env, ...env, MALLOC_CONF: `${env.MALLOC_CONF},stats_print:true` } });
    const printed = stdout + stderr;
    expect(printed).not.toMatch(/Invalid conf/i);
    expect(printed).toMatch(/opt\.oversize_threshold: 0\b/);
  });

  it("is the server's alone: its own children do not inherit the preload, an operator's preload stays", () => {
    const ours: Record<string, string | undefined> = { LD_PRELOAD: JEMALLOC, FLAGSHIP_ALLOCATOR: "jemalloc", MALLOC_CONF: JEMALLOC_CONF, PATH: "/usr/bin" };
    keepAllocatorToSelf(ours);
    expect(ours).toEqual({ PATH: "/usr/bin" });
    const operators: Record<string, string | undefined> = { LD_PRELOAD: "/opt/own.so" };
    keepAllocatorToSelf(operators);
    expect(operators).toEqual({ LD_PRELOAD: "/opt/own.so" });
  });
});
