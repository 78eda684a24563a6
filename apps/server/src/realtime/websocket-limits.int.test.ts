import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../testing.ts";
import { openSocket } from "./ws-client.ts";

let server: TestServer;
let wsUrl: string;

beforeAll(async () => {
  server = await createTestServer({ WS_MAX_PER_IP: "2" });
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const address = server.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  wsUrl = `ws://127.0.0.1:${address.port}/api/v2/ws/`;
});
afterAll(() => server.close());

describe("websocket connections per address (WS_MAX_PER_IP)", () => {
  it("closes a socket over the cap with 1008 and a reason, and frees a place when one closes", async () => {
    const first = await openSocket(wsUrl);
    const second = await openSocket(wsUrl);
    await first.waitFor((e) => e.event_code === 0);
    await second.waitFor((e) => e.event_code === 0);

    const third = await openSocket(wsUrl);
    expect(await third.closed).toEqual({ code: 1008, reason: "Too many connections from this address" });
    expect(third.events).toEqual([]);

    first.close();
    await first.closed;
    // The server counts the socket gone once it has seen the close; the next one gets its place.
    const deadline = Date.now() + 10_000;
    let fourth = await openSocket(wsUrl);
    for (;;) {
      const outcome = await Promise.race([fourth.waitFor((e) => e.event_code === 0, 10_000).then(() => "open"), fourth.closed.then(() => "closed")]);
      if (outcome === "open") break;
      if (Date.now() > deadline) throw new Error("no place freed");
      fourth = await openSocket(wsUrl);
    }
    expect(fourth.events[0]).toEqual({ event_code: 0, message: "Websocket connected." });
    second.close();
    fourth.close();
  });
});
