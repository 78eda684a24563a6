import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const supervise = fileURLToPath(new URL("../../../scripts/supervise.mjs", import.meta.url));

// A stand-in for the server: says it is up, and on SIGTERM says so and exits 0 after a moment.
const SERVER = `
process.on("SIGTERM", () => { console.log("server got SIGTERM"); setTimeout(() => process.exit(0), 100); });
console.log("server up");
setInterval(() => {}, 1000);
`;

/** A launcher like scripts/start.mjs: runs the stand-in through supervise.mjs, exits with it. */
function launcher(): ChildProcess {
  const script = `
    import { run } from ${JSON.stringify(supervise)};
    const code = await run(process.execPath, ["-e", ${JSON.stringify(SERVER)}]);
    console.log("launcher exits " + code);
    process.exit(code);
  `;
  return spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
}

async function until(child: ChildProcess, text: string, out: string[]): Promise<void> {
  while (!out.join("").includes(text)) await once(child.stdout!, "data");
}

describe("npm start's launcher", () => {
  it("passes SIGTERM on to the server and exits when the server has exited", async () => {
    const child = launcher();
    const out: string[] = [];
    child.stdout!.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    await until(child, "server up", out);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(out.join("")).toContain("server got SIGTERM");
    expect(out.join("")).toContain("launcher exits 0");
    expect(code).toBe(0);
  });

  it("exits with the server's status when the server stops by itself", async () => {
    const script = `
      import { run } from ${JSON.stringify(supervise)};
      process.exit(await run(process.execPath, ["-e", "process.exit(3)"]));
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(3);
  });
});
