import { spawn, spawnSync } from "node:child_process";
import net from "node:net";
import { freePort } from "../embedded.ts";

/**
 * A real redis-server for the test run, on a free loopback port with no persistence; REDIS_URL
 * instead when given. Tests that need Redis fail loudly when neither is available.
 */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  if (spawnSync("redis-server", ["--version"]).status !== 0) return { url: "", stop: async () => {} };
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(port))) {
    if (Date.now() > deadline) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export function testRedisUrl(url: string): string {
  if (!url) throw new Error("These tests need redis-server (Debian: apt-get install redis-server) or REDIS_URL.");
  return url;
}
