import http from "node:http";
import { once } from "node:events";
import { createTestWorld, type TestWorld } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSocket } from "./realtime/ws-client.ts";
import { type ServerCopy, startServerCopy } from "./testing.ts";

/**
 * A real server process (main.ts) shut down with SIGTERM while a request is in flight and a
 * websocket is open: readiness goes false at once, liveness and requests keep answering through
 * SHUTDOWN_DELAY_MS, then the copy stops taking connections, tells the socket to reconnect,
 * finishes the request and exits 0.
 */
let world: TestWorld;
let copy: ServerCopy | undefined;

beforeAll(async () => {
  world = await createTestWorld();
}, 120_000);
afterAll(async () => {
  await copy?.stop();
  await world.close();
});

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A status through a fresh connection, or "refused" when nothing listens any more. */
function statusOf(url: string): Promise<number | "refused"> {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .once("error", () => resolve("refused"));
  });
}

describe("graceful shutdown", () => {
  it("drains: readiness off first, in-flight requests finished, sockets told to reconnect, exit 0", async () => {
    copy = await startServerCopy({ DATABASE_URL: world.database.url, SHUTDOWN_DELAY_MS: "600000", SHUTDOWN_TIMEOUT_MS: "60000" });
    const { url, child } = copy;
    expect(await statusOf(`${url}/readyz`)).toBe(200);
    const socket = await openSocket(`${url.replace("http", "ws")}/api/v2/ws/`);
    await socket.waitFor((e) => e.event_code === 0);

    // A login whose body is still arriving: in flight until the test sends the rest.
    const body = JSON.stringify({ username: "nobody-here", password: "not the password" });
    const request = http.request(`${url}/api/v2/auth/login/`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.once("response", (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.once("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      request.once("error", reject);
    });
    request.write(body.slice(0, 10));
    request.flushHeaders();

    child.kill("SIGTERM");
    await until("readiness to go false", async () => (await statusOf(`${url}/readyz`)) === 503);
    expect(await statusOf(`${url}/healthz`)).toBe(200);
    expect(await statusOf(`${url}/api/v2/stats/version/`)).toBe(200);

    // A second signal ends the delay: the copy stops taking connections and closes sockets.
    child.kill("SIGTERM");
    expect(await socket.closed).toEqual({ code: 1012, reason: "Server restarting, reconnect" });
    await until("new connections to be refused", async () => (await statusOf(`${url}/healthz`)) === "refused");
    expect(child.exitCode).toBeNull();

    request.end(body.slice(10));
    const answered = await response;
    expect(answered.status).toBe(401);
    expect(JSON.parse(answered.body)).toMatchObject({ s: false });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  }, 120_000);
});
