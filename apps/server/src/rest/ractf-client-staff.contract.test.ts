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

describe("RACTF's client: the CSV exports (X-Exporting: true)", () => {
  const exporting = { "X-Exporting": "true" };

  it("GET /member/ answers staff each member's staff object with their solves, following `next` page by page", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id, { score: 120 });
    const team = await createTeamWith(server.world, 2);
    const [solver, other] = team.members as [(typeof team.members)[0], (typeof team.members)[0]];
    const solved = await server.api("POST", "/challenges/submit_flag/", { token: solver.token, body: { challenge: challenge.id, flag: "flag{right}" } });
    expect(solved.body.m).toBe("correct_flag");
    const unsolved = await createChallenge(server.world, category.id);
    await server.api("POST", "/challenges/submit_flag/", { token: other.token, body: { challenge: unsolved.id, flag: "flag{wrong}" } });

    const rows: Record<string, unknown>[] = [];
    let url: string | null = "/member/?limit=2";
    while (url) {
      const res = await server.api("GET", url, { token: staff.token, headers: exporting });
      expect(res.status).toBe(200);
      rows.push(...res.body.d.results);
      url = res.body.d.next && new URL(res.body.d.next).pathname.replace(/^\/api\/v2/, "") + new URL(res.body.d.next).search;
    }
    const row = rows.find((r) => r.id === solver.id);
    // Every column the export writes: id, username, email, email verified, date joined, active,
    // visible, staff, team id, points, leaderboard points, the profile fields, bio and solve ids.
    expect(row).toMatchObject({
      id: solver.id,
      username: solver.username,
      email: solver.email,
      email_verified: true,
      date_joined: expect.any(String),
      is_active: true,
      is_visible: true,
      is_staff: false,
      team: team.id,
      points: 120,
      leaderboard_points: 120,
      reddit: "",
      twitter: "",
      discord: "",
      discordid: "",
      bio: "",
      incorrect_solves: 0,
      solves: [expect.objectContaining({ id: expect.any(Number), challenge: challenge.id, points: 120, solved_by: solver.id })],
    });
    expect(rows.find((r) => r.id === other.id)).toMatchObject({ solves: [], incorrect_solves: 1 });
  });

  it("GET /team/ answers staff each team's owner, password, members and solves", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id, { score: 80 });
    const team = await createTeamWith(server.world, 2);
    await server.api("POST", "/challenges/submit_flag/", { token: team.members[1]!.token, body: { challenge: challenge.id, flag: "flag{right}" } });
    const res = await server.api("GET", `/team/?search=${encodeURIComponent(team.name)}`, { token: staff.token, headers: exporting });
    expect(res.body.d.results).toEqual([
      expect.objectContaining({
        id: team.id,
        name: team.name,
        is_visible: true,
        owner: team.members[0]!.id,
        password: "team-secret-1",
        members: team.members.map((m) => ({ id: m.id, username: m.username })),
        solves: [expect.objectContaining({ challenge: challenge.id, points: 80, solved_by: team.members[1]!.id })],
        points: 80,
        leaderboard_points: 80,
      }),
    ]);
  });

  it("a player sending the header, or staff sending `exporting: false` (the member search), get the ordinary lists", async () => {
    const team = await createTeamWith(server.world, 1);
    const player = team.members[0]!;
    const teams = await server.api("GET", `/team/?search=${encodeURIComponent(team.name)}`, { token: player.token, headers: exporting });
    expect(teams.body.d.results).toEqual([{ id: team.id, name: team.name, members: 1, leaderboard_points: 0, is_visible: true }]);
    const members = await server.api("GET", `/member/?search=${player.username}`, { token: player.token, headers: exporting });
    expect(members.body.d.results).toHaveLength(1);
    expect(members.body.d.results[0]).not.toHaveProperty("solves");
    expect(members.body.d.results[0]).not.toHaveProperty("email");
    const search = await server.api("GET", `/member/?search=${player.username}`, { token: staff.token, headers: { exporting: "false" } });
    expect(search.body.d.results[0]).toMatchObject({ id: player.id, email: player.email });
    expect(search.body.d.results[0]).not.toHaveProperty("solves");
  });
});
