import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { serverNodeFlags } from "../../../scripts/server-flags.mjs";

const run = promisify(execFile);

describe("npm start's Node flags", () => {
  it("cap the heap at 256 MiB unless NODE_OPTIONS sets its own cap, and always turn pretenuring off", () => {
    expect(serverNodeFlags({})).toEqual(["--max-old-space-size=256", "--no-allocation-site-pretenuring"]);
    expect(serverNodeFlags({ NODE_OPTIONS: "--max-old-space-size=1024" })).toEqual(["--no-allocation-site-pretenuring"]);
  });

  it("are taken by Node and V8 as they are (a misspelt V8 flag stops node from starting)", async () => {
    const script = "const v8 = require('v8'); process.stdout.write(JSON.stringify({ argv: process.execArgv, limit: v8.getHeapStatistics().heap_size_limit }))";
    const { stdout } = await run(process.execPath, [...serverNodeFlags({}), "-e", script], { env: { ...process.env, NODE_OPTIONS: "" } });
    const started = JSON.parse(stdout) as { argv: string[]; limit: number };
    expect(started.argv.slice(0, serverNodeFlags({}).length)).toEqual(serverNodeFlags({}));
    // The old generation's 256 MiB and the young generation's semi-spaces.
    expect(started.limit / 2 ** 20).toBeGreaterThanOrEqual(256);
    expect(started.limit / 2 ** 20).toBeLessThan(400);
    await expect(run(process.execPath, ["--no-allocation-site-pretenurin", "-e", "0"])).rejects.toThrow(/bad option/);
  });
});
