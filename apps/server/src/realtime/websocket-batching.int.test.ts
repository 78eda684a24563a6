import { createTestWorld, createUser, type TestWorld } from "@flagship/api/testing";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerWebsocket, WRITE_SLICE } from "./websocket.ts";
import { openSocket, type RecordingSocket } from "./ws-client.ts";

/**
 * Websocket writes are batched: an event after a quiet spell goes out at once, the events close
 * behind it wait and go out together, one write per socket, each socket's frames in order.
 */
let world: TestWorld;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await world.close();
});

async function hub(batchMs: number): Promise<{ url: string; writes: () => number }> {
  const app = Fastify();
  apps.push(app);
  const { writes } = await registerWebsocket(app, world.services, { batchMs });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return { url: `ws://127.0.0.1:${address.port}/api/v2/ws/`, writes };
}

const publishAll = (code: number, n: number) => world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: code, n } });

/** Waits until `socket` has `count` events with this code, and answers their n in arrival order. */
async function received(socket: RecordingSocket, code: number, count: number): Promise<unknown[]> {
  await expect.poll(() => socket.events.filter((e) => e.event_code === code).length).toBe(count);
  return socket.events.filter((e) => e.event_code === code).map((e) => e.n);
}

describe("websocket write batching", () => {
  it("sends an event after a quiet spell at once, and those close behind it together in one write per socket", async () => {
    // A long window, so a slow machine cannot stretch the test's own steps past it.
    const { url, writes } = await hub(1000);
    const sockets = [await openSocket(url), await openSocket(url)];
    for (const socket of sockets) await socket.waitFor((e) => e.event_code === 0);

    // Nothing written yet through the batches: the first event goes out at once, one write per socket.
    const before = writes();
    await publishAll(1, 0);
    expect(writes() - before).toBe(2);
    // Four more right behind it: held for the rest of the window, then one write per socket.
    for (let n = 1; n <= 4; n++) await publishAll(1, n);
    expect(writes() - before).toBe(2);
    for (const socket of sockets) expect(await received(socket, 1, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(writes() - before).toBe(4);
    for (const socket of sockets) socket.close();
  });

  it("keeps each socket's order when team events and events for everyone share a batch", async () => {
    const { url } = await hub(1000);
    const team = await world.services.db.team.create({ data: { name: `batch-${Date.now()}`, password: "secretsecret" } });
    const member = await createUser(world, { teamId: team.id });
    const outsider = await openSocket(url);
    const inside = await openSocket(url);
    inside.send({ token: member.token });
    // Joined once a team probe arrives (the contract has no reply to the token). The token is
    // checked against the database, which on a busy machine takes longer than the poll's default second.
    await expect
      .poll(async () => {
        await world.services.events.publish({ kind: "socket", audience: { teamId: team.id }, payload: { event_code: -1 } });
        return inside.events.some((e) => e.event_code === -1);
      }, { timeout: 10_000 })
      .toBe(true);

    // The probes above were just written: these five wait for the same next write.
    await publishAll(2, 0);
    await world.services.events.publish({ kind: "socket", audience: { teamId: team.id }, payload: { event_code: 2, n: 1 } });
    await publishAll(2, 2);
    await world.services.events.publish({ kind: "socket", audience: { teamId: team.id }, payload: { event_code: 2, n: 3 } });
    await publishAll(2, 4);
    expect(await received(inside, 2, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(await received(outsider, 2, 3)).toEqual([0, 2, 4]);
    outsider.close();
    inside.close();
  });

  it("writes a flush to many sockets slice by slice, serving other work between slices, each socket's frames in order", async () => {
    const { url, writes } = await hub(0);
    const count = WRITE_SLICE * 2 + 30;
    const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(url)));
    for (const socket of sockets) await socket.waitFor((e) => e.event_code === 0);

    const before = writes();
    await publishAll(5, 0);
    // The first slice is written at once; the rest wait for later turns of the event loop.
    expect(writes() - before).toBe(WRITE_SLICE);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes() - before).toBeGreaterThan(WRITE_SLICE);
    // Events published while the slices are written follow them, never overtaking them.
    for (let n = 1; n < 4; n++) await publishAll(5, n);
    for (const socket of sockets) expect(await received(socket, 5, 4)).toEqual([0, 1, 2, 3]);
    for (const socket of sockets) socket.close();
  });

  it("with batching off, writes every event at once", async () => {
    const { url, writes } = await hub(0);
    const socket = await openSocket(url);
    await socket.waitFor((e) => e.event_code === 0);
    const before = writes();
    for (let n = 0; n < 3; n++) await publishAll(3, n);
    expect(writes() - before).toBe(3);
    expect(await received(socket, 3, 3)).toEqual([0, 1, 2]);
    // Frames of every length class (7-bit, 16-bit and 64-bit lengths) arrive whole.
    for (const size of [200, 70_000]) {
      const text = "x".repeat(size);
      await world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 4, text } });
      expect((await socket.waitFor((e) => e.event_code === 4 && e.text === text)).text).toHaveLength(size);
    }
    socket.close();
  });
});
