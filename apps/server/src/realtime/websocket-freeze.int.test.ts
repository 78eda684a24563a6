import { type AppEvent } from "@flagship/api";
import { callerFor, createCategory, createChallenge, createTeamWith, createUser, type TestTeam, type TestUser } from "@flagship/api/testing";
import { challengeValue } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../testing.ts";
import { openSocket, type RecordingSocket } from "./ws-client.ts";

/**
 * While the scoreboard is frozen, a solve after the freeze reaches the solving team's sockets and
 * staff's (event 1), and the decay it causes staff's only (event 7); a third team's socket and one
 * without a token hear of neither.
 */

const DECAY = { flag: "flag{right}", decay_constant: 0.5, min_points: 100 };
const value = (solves: number) => challengeValue("decay", 500, solves, DECAY);

let server: TestServer;
let wsUrl: string;
let staff: TestUser;
let early: TestTeam;
let late: TestTeam;
let third: TestTeam;
let decay: number;

beforeAll(async () => {
  server = await createTestServer();
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const address = server.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  wsUrl = `ws://127.0.0.1:${address.port}/api/v2/ws/`;
  [early, late, third] = [await createTeamWith(server.world, 1), await createTeamWith(server.world, 1), await createTeamWith(server.world, 1)];
  // A staff member in the solving team: their socket is on its channel and staff's at once.
  staff = await createUser(server.world, { isStaff: true, teamId: late.id });
  const category = await createCategory(server.world);
  decay = (await createChallenge(server.world, category.id, { score: 500, currentScore: 500, pointsType: "decay", flagMetadata: DECAY })).id;
});
afterAll(() => server.close());

/** Sends the token and waits until the server has taken it in, by probing with `probe`'s audience. */
async function authenticate(socket: RecordingSocket, token: string, audience: Extract<AppEvent, { kind: "socket" }>["audience"]): Promise<void> {
  socket.send({ token });
  const deadline = Date.now() + 10_000;
  while (!socket.events.some((e) => e.event_code === -1)) {
    if (Date.now() > deadline) throw new Error("the socket was never authenticated");
    await server.world.services.events.publish({ kind: "socket", audience, payload: { event_code: -1 } });
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function submit(team: TestTeam): Promise<void> {
  const res = await server.api("POST", "/challenges/submit_flag/", { token: team.members[0]!.token, body: { challenge: decay, flag: "flag{right}" } });
  expect(res.body.d).toMatchObject({ correct: true });
}

describe("the websocket while the scoreboard is frozen", () => {
  it("tells only the solving team and staff of a later solve, and only staff of its decay", async () => {
    const anonymous = await openSocket(wsUrl);
    const thirdSocket = await openSocket(wsUrl);
    const lateSocket = await openSocket(wsUrl);
    const staffSocket = await openSocket(wsUrl);
    await authenticate(thirdSocket, third.members[0]!.token, { teamId: third.id });
    await authenticate(lateSocket, late.members[0]!.token, { teamId: late.id });
    await authenticate(staffSocket, staff.token, { staff: true });

    await submit(early);
    for (const socket of [anonymous, thirdSocket, lateSocket, staffSocket]) await socket.waitFor((e) => e.event_code === 1 && e.team === early.id);
    // The first solve's score update (event 7) is news for everyone, before the freeze.
    for (const socket of [anonymous, thirdSocket, lateSocket, staffSocket]) await socket.waitFor((e) => e.event_code === 7 && e.challenge_score === value(1));

    const freeze = Math.ceil(Date.now() / 1000);
    while (Date.now() <= freeze * 1000 + 20) await new Promise((resolve) => setTimeout(resolve, 25));
    expect((await server.api("POST", "/config/scoreboard_freeze_time/", { token: staff.token, body: { value: freeze } })).body.s).toBe(true);
    await submit(late);

    // The solving team hears of its solve, worth what the challenge was worth at the freeze.
    expect(await lateSocket.waitFor((e) => e.event_code === 1 && e.team === late.id)).toMatchObject({ challenge_id: decay, challenge_score: value(1) });
    await staffSocket.waitFor((e) => e.event_code === 1 && e.team === late.id);
    expect(await staffSocket.waitFor((e) => e.event_code === 7 && e.challenge_score !== value(1))).toEqual({ event_code: 7, challenge_id: decay, challenge_score: value(2) });
    // Events reach each socket in order: once a later one for everyone has arrived, nothing else is coming.
    await server.world.services.events.publish({ kind: "socket", audience: { all: true }, payload: { event_code: 6, challenge_id: decay } });
    for (const socket of [anonymous, thirdSocket, lateSocket]) await socket.waitFor((e) => e.event_code === 6);
    for (const [who, socket] of [["anonymous", anonymous], ["third team", thirdSocket]] as const) {
      expect({ who, later: socket.events.filter((e) => (e.event_code === 1 && e.team === late.id) || (e.event_code === 7 && e.challenge_score !== value(1))) }).toEqual({ who, later: [] });
    }
    expect(lateSocket.events.filter((e) => e.event_code === 7 && e.challenge_score !== value(1))).toEqual([]);
    // The staff member's socket, on the team's channel and staff's, gets the solve once.
    expect(staffSocket.events.filter((e) => e.event_code === 1 && e.team === late.id)).toHaveLength(1);
    for (const socket of [anonymous, thirdSocket, lateSocket, staffSocket]) socket.close();
  });

  it("keeps later solves hidden after the end, and tells every open page of config changes and the reveal", async () => {
    const anonymous = await openSocket(wsUrl);
    const thirdSocket = await openSocket(wsUrl);
    const staffSocket = await openSocket(wsUrl);
    await authenticate(thirdSocket, third.members[0]!.token, { teamId: third.id });
    await authenticate(staffSocket, staff.token, { staff: true });

    expect((await server.api("POST", "/config/end_time/", { token: staff.token, body: { value: Math.floor(Date.now() / 1000) - 1 } })).body.s).toBe(true);
    for (const socket of [anonymous, thirdSocket, staffSocket]) expect(await socket.waitFor((e) => e.event_code === 9)).toEqual({ event_code: 9, keys: ["end_time"] });
    expect((await server.api("POST", "/config/enable_flag_submission_after_competition/", { token: staff.token, body: { value: true } })).body.s).toBe(true);
    await submit(third);
    await thirdSocket.waitFor((e) => e.event_code === 1 && e.team === third.id);
    // A staff-only key is named to staff's sockets only.
    expect((await server.api("POST", "/config/sharing_wrong_flag_window/", { token: staff.token, body: { value: 30 } })).body.s).toBe(true);
    expect(await staffSocket.waitFor((e) => e.event_code === 9 && (e.keys as string[]).includes("sharing_wrong_flag_window"))).toBeTruthy();

    const reveal = await callerFor(server.world, staff).leaderboard.reveal();
    expect(reveal.revealed_at).toBeGreaterThan(0);
    for (const socket of [anonymous, thirdSocket, staffSocket]) await socket.waitFor((e) => e.event_code === 9 && (e.keys as string[]).includes("scoreboard_freeze_time"));
    expect(anonymous.events.filter((e) => (e.event_code === 1 && e.team === third.id) || (e.event_code === 9 && (e.keys as string[]).includes("sharing_wrong_flag_window")))).toEqual([]);
    for (const socket of [anonymous, thirdSocket, staffSocket]) socket.close();
  });
});
