import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../testing.ts";

let server: TestServer;
let wsUrl: string;

beforeAll(async () => {
  server = await createTestServer({ CORS_ORIGINS: "https://scoreboard.example.org" });
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const address = server.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  wsUrl = `ws://127.0.0.1:${address.port}/api/v2/ws/`;
});
afterAll(() => server.close());

function opens(origin?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrl, origin ? { origin } : {});
    socket.once("open", () => {
      socket.close();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("cross-origin clients", () => {
  it("answers a preflight from a listed origin, allowing the Authorization header", async () => {
    const res = await server.app.inject({
      method: "OPTIONS",
      url: "/api/v2/config/",
      headers: { origin: "https://scoreboard.example.org", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("https://scoreboard.example.org");
    expect(String(res.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
  });

  it("allows the headers RACTF's client adds: X-Exporting (CSV exports) and Exporting (its member search)", async () => {
    const res = await server.app.inject({
      method: "OPTIONS",
      url: "/api/v2/member/",
      headers: { origin: "https://scoreboard.example.org", "access-control-request-method": "GET", "access-control-request-headers": "authorization,exporting,x-exporting" },
    });
    expect(res.statusCode).toBe(204);
    const allowed = String(res.headers["access-control-allow-headers"]).toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "exporting", "x-exporting"]));
  });

  it("gives an unlisted origin no CORS headers", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/v2/config/", headers: { origin: "https://evil.example.com" } });
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("lets listed origins, the site itself and non-browser clients open the websocket, and no one else", async () => {
    expect(await opens("https://scoreboard.example.org")).toBe(true);
    expect(await opens(new URL(wsUrl).origin.replace("ws:", "http:"))).toBe(true);
    expect(await opens()).toBe(true);
    expect(await opens("https://evil.example.com")).toBe(false);
  });
});
