import { createUser } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../testing.ts";
import { openSocket, type RecordingSocket } from "./ws-client.ts";

let server: TestServer;
let wsUrl: string;

beforeAll(async () => {
  server = await createTestServer();
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const address = server.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  wsUrl = `ws://127.0.0.1:${address.port}/api/v2/ws/`;
});
afterAll(() => server.close());

/**
 * Sends the token and waits until the server has put the socket on the team's channel: the
 * contract has no reply to the token, so probe the channel until a probe arrives.
 */
async function authenticate(socket: RecordingSocket, token: string, teamId: number): Promise<void> {
  socket.send({ token });
  const deadline = Date.now() + 10_000;
  while (!socket.events.some((e) => e.event_code === -1)) {
    if (Date.now() > deadline) throw new Error("the socket never joined its team channel");
    await server.world.services.events.publish({ kind: "socket", audience: { teamId }, payload: { event_code: -1 } });
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("websocket", () => {
  it("sends event 0 on connect", async () => {
    const socket = await openSocket(wsUrl);
    expect(await socket.waitFor((e) => e.event_code === 0)).toEqual({ event_code: 0, message: "Websocket connected." });
    socket.close();
  });

  it("answers without the trailing slash too", async () => {
    const socket = await openSocket(wsUrl.replace(/\/$/, ""));
    await socket.waitFor((e) => e.event_code === 0);
    socket.close();
  });

  it("delivers events for everyone to every socket, and team events only to that team's sockets", async () => {
    const { db } = server.world.services;
    const teamA = await db.team.create({ data: { name: "ws-team-a", password: "secretsecret" } });
    const teamB = await db.team.create({ data: { name: "ws-team-b", password: "secretsecret" } });
    const alice = await createUser(server.world, { teamId: teamA.id });
    const bob = await createUser(server.world, { teamId: teamB.id });
    const anonymous = await openSocket(wsUrl);
    const aliceSocket = await openSocket(wsUrl);
    const bobSocket = await openSocket(wsUrl);
    await authenticate(aliceSocket, alice.token, teamA.id);
    await authenticate(bobSocket, bob.token, teamB.id);

    await server.world.services.events.publish({ kind: "socket", audience: { teamId: teamA.id }, payload: { event_code: 2, team: teamA.id } });
    await server.world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 6, challenge_id: 9 } });

    for (const socket of [anonymous, aliceSocket, bobSocket]) await socket.waitFor((e) => e.event_code === 6);
    await aliceSocket.waitFor((e) => e.event_code === 2);
    expect(bobSocket.events.some((e) => e.event_code === 2)).toBe(false);
    expect(anonymous.events.some((e) => e.event_code === 2)).toBe(false);
    for (const socket of [anonymous, aliceSocket, bobSocket]) socket.close();
  });

  it("delivers staff-only events (suspected sharing, event 8) to staff sockets only", async () => {
    const { db } = server.world.services;
    const team = await db.team.create({ data: { name: "ws-team-staff", password: "secretsecret" } });
    const player = await createUser(server.world, { teamId: team.id });
    const staffTeam = await db.team.create({ data: { name: "ws-team-staffer", password: "secretsecret" } });
    const staff = await createUser(server.world, { isStaff: true, teamId: staffTeam.id });
    const playerSocket = await openSocket(wsUrl);
    const staffSocket = await openSocket(wsUrl);
    const anonymous = await openSocket(wsUrl);
    await authenticate(playerSocket, player.token, team.id);
    await authenticate(staffSocket, staff.token, staffTeam.id);

    await server.world.services.events.publish({ kind: "socket", audience: { staff: true }, payload: { event_code: 8, incident: 1 } });
    await server.world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 6, challenge_id: 10 } });
    for (const socket of [anonymous, playerSocket, staffSocket]) await socket.waitFor((e) => e.event_code === 6 && e.challenge_id === 10);
    expect(await staffSocket.waitFor((e) => e.event_code === 8)).toEqual({ event_code: 8, incident: 1 });
    expect(playerSocket.events.some((e) => e.event_code === 8)).toBe(false);
    expect(anonymous.events.some((e) => e.event_code === 8)).toBe(false);
    for (const socket of [anonymous, playerSocket, staffSocket]) socket.close();
  });

  it("moves a socket into the team its user joins (event 4), out of the one they left", async () => {
    const { db } = server.world.services;
    const before = await db.team.create({ data: { name: "ws-team-before", password: "secretsecret" } });
    const team = await db.team.create({ data: { name: "ws-team-join", password: "secretsecret" } });
    const carol = await createUser(server.world, { teamId: before.id });
    const socket = await openSocket(wsUrl);
    await authenticate(socket, carol.token, before.id);
    await server.world.services.events.publish({
      kind: "socket",
      audience: { teamId: team.id },
      payload: { event_code: 4, user: carol.id, username: carol.username, team: team.id, team_name: team.name },
    });
    await socket.waitFor((e) => e.event_code === 4);
    await server.world.services.events.publish({ kind: "socket", audience: { teamId: team.id }, payload: { event_code: 3, team: team.id } });
    await socket.waitFor((e) => e.event_code === 3 && e.team === team.id);
    await server.world.services.events.publish({ kind: "socket", audience: { teamId: before.id }, payload: { event_code: 3, team: before.id } });
    await server.world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 6, challenge_id: 1 } });
    await socket.waitFor((e) => e.event_code === 6);
    expect(socket.events.some((e) => e.event_code === 3 && e.team === before.id)).toBe(false);
    socket.close();
  });

  it("drops a socket from its team's channel when its user's sessions end", async () => {
    const { db } = server.world.services;
    const team = await db.team.create({ data: { name: "ws-team-revoked", password: "secretsecret" } });
    const erin = await createUser(server.world, { teamId: team.id });
    const socket = await openSocket(wsUrl);
    await authenticate(socket, erin.token, team.id);
    await db.authToken.deleteMany({ where: { userId: erin.id } });
    await server.world.services.events.publish({ kind: "internal", name: "sessions_revoked", data: { userId: erin.id } });
    await new Promise((r) => setTimeout(r, 300));
    await server.world.services.events.publish({ kind: "socket", audience: { teamId: team.id }, payload: { event_code: 3, team: team.id } });
    await server.world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 6, challenge_id: 2 } });
    await socket.waitFor((e) => e.event_code === 6 && e.challenge_id === 2);
    expect(socket.events.some((e) => e.event_code === 3 && e.team === team.id)).toBe(false);
    socket.close();
  });

  it("keeps a socket that sent a token that does not work on the public channel only", async () => {
    const { db } = server.world.services;
    const team = await db.team.create({ data: { name: "ws-team-badtoken", password: "secretsecret" } });
    const frank = await createUser(server.world, { teamId: team.id });
    const socket = await openSocket(wsUrl);
    await authenticate(socket, frank.token, team.id);
    socket.send({ token: "f".repeat(64) });
    await new Promise((r) => setTimeout(r, 300));
    await server.world.services.events.publish({ kind: "socket", audience: { teamId: team.id }, payload: { event_code: 2, team: team.id } });
    await server.world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 6, challenge_id: 3 } });
    await socket.waitFor((e) => e.event_code === 6 && e.challenge_id === 3);
    expect(socket.events.some((e) => e.event_code === 2)).toBe(false);
    socket.close();
  });

  it("sends event 5 when staff post an announcement", async () => {
    const staff = await createUser(server.world, { isStaff: true });
    const socket = await openSocket(wsUrl);
    const res = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "Hello", body: "World" } });
    expect(res.status).toBe(201);
    const event = await socket.waitFor((e) => e.event_code === 5);
    expect(event).toEqual({ event_code: 5, id: res.body.d.id, title: "Hello", body: "World", timestamp: res.body.d.timestamp });
    socket.close();
  });
});
