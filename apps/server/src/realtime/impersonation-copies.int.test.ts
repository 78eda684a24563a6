import { randomUUID } from "node:crypto";
import { RedisPublisher } from "@flagship/api";
import { createTestWorld, createUser, type TestUser, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type ServerCopy, startServerCopy } from "../testing.ts";
import { openSocket, type RecordingSocket } from "./ws-client.ts";

/**
 * An impersonation that ends (its staff member logs out or is demoted on one server copy) stops
 * working on the other copy too: neither copy's cache of resolved tokens nor a websocket opened
 * with it there keeps it alive.
 */
let world: TestWorld;
let copies: [ServerCopy, ServerCopy];
let events: RedisPublisher;
let player: TestUser;
let teamId: number;
const sockets: RecordingSocket[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  const redisUrl = testRedisUrl(inject("redisUrl"));
  const start = () => startServerCopy({ DATABASE_URL: world.database.url, REDIS_URL: redisUrl });
  copies = (await Promise.all([start(), start()])) as [ServerCopy, ServerCopy];
  events = new RedisPublisher(redisUrl);
  await events.connected();
  teamId = (await world.services.db.team.create({ data: { name: `copies-${randomUUID().slice(0, 8)}`, password: "secretsecret" } })).id;
  player = await createUser(world, { teamId });
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await events.close();
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

async function call(copy: ServerCopy, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: { m: string; d: any } }> {
  const res = await fetch(`${copy.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Token ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { m: string; d: any } };
}

/** A probe to the player's team channel; marked, as other test files share the Redis channel. */
async function probe(marker: string): Promise<void> {
  await events.publish({ kind: "socket", audience: { teamId }, payload: { event_code: -1, marker } });
}

/** A websocket on `copy` that sent `token` and has joined the player's team channel. */
async function teamSocket(copy: ServerCopy, token: string): Promise<RecordingSocket> {
  const socket = await openSocket(`ws://127.0.0.1:${copy.port}/api/v2/ws/`);
  sockets.push(socket);
  socket.send({ token });
  const marker = randomUUID();
  const deadline = Date.now() + 10_000;
  while (!socket.events.some((e) => e.marker === marker)) {
    if (Date.now() > deadline) throw new Error("the socket never joined its team channel");
    await probe(marker);
    await new Promise((r) => setTimeout(r, 50));
  }
  return socket;
}

/** Whether `socket` still hears its team channel: a team probe, then one for everyone as a fence. */
async function hearsTeam(socket: RecordingSocket): Promise<boolean> {
  const marker = randomUUID();
  await probe(marker);
  await events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: -2, marker } });
  await socket.waitFor((e) => e.event_code === -2 && e.marker === marker);
  return socket.events.some((e) => e.event_code === -1 && e.marker === marker);
}

/** Whether `socket` hears staff-only news, fenced like `hearsTeam`. */
async function hearsStaff(socket: RecordingSocket): Promise<boolean> {
  const marker = randomUUID();
  await events.publish({ kind: "socket", audience: { staff: true }, payload: { event_code: -3, marker } });
  await events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: -2, marker } });
  await socket.waitFor((e) => e.event_code === -2 && e.marker === marker);
  return socket.events.some((e) => e.event_code === -3 && e.marker === marker);
}

/** The status `token` gets on `copy`, once it is 401 or a second (the contract's bound across copies) has passed. */
async function statusWithin(copy: ServerCopy, token: string): Promise<number> {
  const deadline = Date.now() + 1000;
  for (;;) {
    const { status } = await call(copy, "GET", "/member/self/", token);
    if (status === 401 || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("an impersonation ended on one copy", () => {
  it("ends on the other when the staff member logs out, its socket leaving the team channel", async () => {
    const [a, b] = copies;
    const lead = await createUser(world, { isStaff: true });
    const { body } = await call(a, "POST", "/auth/sudo/", lead.token, { id: player.id });
    const token = body.d.token as string;
    // Both copies have the impersonation's actor cached, and a socket on the second hears the team.
    expect((await call(a, "GET", "/member/self/", token)).body.d.id).toBe(player.id);
    expect((await call(b, "GET", "/member/self/", token)).body.d.id).toBe(player.id);
    const socket = await teamSocket(b, token);
    const own = await teamSocket(b, player.token);

    expect((await call(a, "POST", "/auth/logout/", lead.token)).status).toBe(200);
    expect(await statusWithin(b, token)).toBe(401);
    expect((await call(a, "GET", "/member/self/", token)).status).toBe(401);
    await expect.poll(() => hearsTeam(socket), { timeout: 5000 }).toBe(false);
    // The player's own socket and session are untouched.
    expect(await hearsTeam(own)).toBe(true);
    expect((await call(b, "GET", "/member/self/", player.token)).status).toBe(200);
  });

  it("ends on the other when the staff member is demoted, whose own socket stops hearing staff-only news", async () => {
    const [a, b] = copies;
    const admin = await createUser(world, { isStaff: true });
    const lead = await createUser(world, { isStaff: true });
    const token = (await call(b, "POST", "/auth/sudo/", lead.token, { id: player.id })).body.d.token as string;
    expect((await call(b, "GET", "/member/self/", token)).status).toBe(200);
    expect((await call(a, "GET", "/member/self/", token)).status).toBe(200);
    const socket = await teamSocket(a, token);
    const own = await openSocket(`ws://127.0.0.1:${a.port}/api/v2/ws/`);
    sockets.push(own);
    own.send({ token: lead.token });
    await expect.poll(() => hearsStaff(own), { timeout: 5000 }).toBe(true);

    expect((await call(b, "PATCH", `/member/${lead.id}/`, admin.token, { is_staff: false })).status).toBe(200);
    expect(await statusWithin(a, token)).toBe(401);
    await expect.poll(() => hearsTeam(socket), { timeout: 5000 }).toBe(false);
    await expect.poll(() => hearsStaff(own), { timeout: 5000 }).toBe(false);
    // Their login session stays, as a player's.
    expect((await call(a, "GET", "/member/self/", lead.token)).body.d).toMatchObject({ id: lead.id, is_staff: false });
  });
});
