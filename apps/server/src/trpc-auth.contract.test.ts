import { Writable } from "node:stream";
import { createUser } from "@flagship/api/testing";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "./app.ts";
import { loadEnv } from "./env.ts";
import { useContractServer } from "./testing.ts";

/**
 * A token that no longer works (logged out, expired, revoked, never issued) is 401 over tRPC as
 * over REST: every tab left open after a logout sends one, and answering it as a server error
 * (500) both misleads the client and floods the error log.
 */
const { server, staff } = await useContractServer();

/** The same server, logging to `lines` so a test can read how each answer was logged. */
let app: FastifyInstance;
const lines: { level: number; msg?: string; res?: { statusCode?: number }; err?: unknown }[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  app = await buildServer({ env: loadEnv({ THROTTLE: "off" }), services: server.world.services, loggerInstance: pino({ level: "info" }, sink) });
  await app.ready();
});
afterAll(() => app.close());

const BAD = `Token ${"f".repeat(64)}`;
const encode = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The tRPC error of one call, or each call's of a batch. */
type TrpcError = { error: { json: { message: string; data: { code: string; httpStatus: number; appCode: string } } } };

function expectUnauthorized(error: TrpcError): void {
  expect(error.error.json.data).toMatchObject({ code: "UNAUTHORIZED", httpStatus: 401, appCode: "authentication_failed" });
  expect(error.error.json.message).toBe("Your session is no longer valid. Please log in again.");
}

describe("tRPC with a token that does not work", () => {
  it("answers a query 401 UNAUTHORIZED, logged as a client's error, not a server's", async () => {
    const from = lines.length;
    const res = await app.inject({ method: "GET", url: "/trpc/auth.me", headers: { authorization: BAD } });
    expect(res.statusCode).toBe(401);
    expectUnauthorized(res.json());
    const logged = lines.slice(from);
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ msg: "request completed", res: expect.objectContaining({ statusCode: 401 }) }));
  });

  it("answers a mutation 401 with a token that was logged out, and changes nothing", async () => {
    const user = await createUser(server.world);
    expect((await server.api("POST", "/auth/logout/", { token: user.token })).status).toBe(200);
    const res = await app.inject({
      method: "POST",
      url: "/trpc/account.update",
      headers: { authorization: `Token ${user.token}`, "content-type": "application/json" },
      payload: { json: { bio: "still here?" } },
    });
    expect(res.statusCode).toBe(401);
    expectUnauthorized(res.json());
    expect((await server.world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { bio: true } })).bio).toBe("");
  });

  it("answers every call of a batch 401, a query batch and a mutation batch alike", async () => {
    const queries = await app.inject({
      method: "GET",
      url: `/trpc/auth.me,config.list?batch=1&input=${encode({ 0: { json: null }, 1: { json: null } })}`,
      headers: { authorization: BAD },
    });
    expect(queries.statusCode).toBe(401);
    const answers = queries.json() as TrpcError[];
    expect(answers).toHaveLength(2);
    for (const answer of answers) expectUnauthorized(answer);

    const mutations = await app.inject({
      method: "POST",
      url: "/trpc/auth.logout,auth.add2fa?batch=1",
      headers: { authorization: BAD, "content-type": "application/json" },
      payload: { 0: { json: null }, 1: { json: null } },
    });
    expect(mutations.statusCode).toBe(401);
    for (const answer of mutations.json() as TrpcError[]) expectUnauthorized(answer);
  });

  it("answers 401 for an expired personal access token, as REST does", async () => {
    const created = await server.api("POST", "/auth/tokens/", { token: staff.token, body: { name: "soon gone", expires_in_days: 1 } });
    await server.world.services.db.authToken.update({ where: { id: created.body.d.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const headers = { authorization: `Token ${created.body.d.token}` };
    const rest = await app.inject({ method: "GET", url: "/api/v2/member/self/", headers });
    const trpc = await app.inject({ method: "GET", url: "/trpc/auth.me", headers });
    expect([rest.statusCode, trpc.statusCode]).toEqual([401, 401]);
    expectUnauthorized(trpc.json());
  });
});
