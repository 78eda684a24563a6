import { configurePasswordHashing, DEFAULT_HASHING } from "@flagship/api";
import { describe, expect, it } from "vitest";
import { useContractServer } from "./testing.ts";

const { server } = await useContractServer();

describe("request limits", () => {
  it("refuses a REST body over 2 MB in the envelope, and changes nothing", async () => {
    const before = await server.world.services.db.user.count();
    const big = JSON.stringify({ username: "x".repeat(2 * 1024 * 1024), email: "big@example.test", password: "irrelevant" });
    const res = await server.api("POST", "/auth/register/", { payload: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ s: false, m: "bad_request", d: "Request body too large." });
    expect(await server.world.services.db.user.count()).toBe(before);
  });

  it("lets tRPC take staff imports up to 20 MB and no more", async () => {
    const over = await server.app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ json: { username: "x".repeat(21 * 1024 * 1024), password: "p" } }),
    });
    expect(over.statusCode).toBe(413);
    const under = await server.app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ json: { username: "x".repeat(3 * 1024 * 1024), password: "p" } }),
    });
    expect(under.statusCode).not.toBe(413);
  });

  it("answers 429 throttled when the password hashing queue is full, instead of queueing more", async () => {
    configurePasswordHashing({ maxWaiting: 0 });
    try {
      const res = await server.api("POST", "/auth/login/", { body: { username: "nobody-here", password: "not the password" } });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ s: false, m: "throttled" });
    } finally {
      configurePasswordHashing(DEFAULT_HASHING);
    }
    const res = await server.api("POST", "/auth/login/", { body: { username: "nobody-here", password: "not the password" } });
    expect(res.status).toBe(401);
  });
});
