import { createCategory, createChallenge, createTeamWith } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";

/**
 * RACTF's own web client, unchanged, against Flagship: the staff pages and live updates that used
 * to end in an error or show nothing. Each request is the one that client sends.
 */
const { server, staff } = await useContractServer();

/** What the websocket was sent, in order, with each event's audience. */
const socketEvents = () => server.world.events.flatMap((e) => (e.kind === "socket" ? [e] : []));

describe("RACTF's client: live updates", () => {
  it("a hidden challenge's update (event 6) goes to staff only: a player's client fetches it, gets 404 and throws", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id, { hidden: true });
    const updates = () => socketEvents().filter((e) => e.payload.event_code === 6 && e.payload.challenge_id === challenge.id);

    expect((await server.api("PATCH", `/challenges/${challenge.id}/`, { token: staff.token, body: { description: "Draft" } })).status).toBe(200);
    const hint = await server.api("POST", "/hints/", { token: staff.token, body: { challenge: challenge.id, name: "Nudge", penalty: "5", text: "Look." } });
    expect(hint.status).toBe(201);
    expect(updates().map((e) => e.audience)).toEqual([{ staff: true }, { staff: true }]);

    // Shown to players, it is news for everyone again.
    expect((await server.api("PATCH", `/challenges/${challenge.id}/`, { token: staff.token, body: { hidden: "false" } })).status).toBe(200);
    expect(updates().map((e) => e.audience)).toEqual([{ staff: true }, { staff: true }, { all: true }]);
  });

  it("every solve of a decay challenge sends the score update (event 7), the first included, as upstream does", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id, { score: 500, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 100 } });
    const scores = () => socketEvents().filter((e) => e.payload.event_code === 7 && e.payload.challenge_id === challenge.id);
    for (const expected of [500, 300]) {
      const team = await createTeamWith(server.world);
      const res = await server.api("POST", "/challenges/submit_flag/", { token: team.members[0]!.token, body: { challenge: challenge.id, flag: "flag{right}" } });
      expect(res.body).toMatchObject({ s: true, m: "correct_flag" });
      expect(scores().at(-1)).toEqual({ kind: "socket", audience: { all: true }, payload: { event_code: 7, challenge_id: challenge.id, challenge_score: expected } });
    }
    expect(scores()).toHaveLength(2);
  });
});
