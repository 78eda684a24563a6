import { describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";

/**
 * RACTF's own web client, unchanged, against Flagship: each request below is the one that client
 * sends (paths, bodies, form values as strings), in the order of a player's and a staff member's
 * first visit.
 */
const { server, staff } = await useContractServer();
let token: string;
let userId: number;
let categoryId: number;
let challengeId: number;
let groupId: number;

const as = (t: string | undefined) => (t ? { token: t } : {});

describe("RACTF's client: what every page load reads", () => {
  it("GET /config/ names the login and registration screens it registers (basic_auth)", async () => {
    const res = await server.api("GET", "/config/");
    expect(res.body.d).toMatchObject({ login_provider: "basic_auth", registration_provider: "basic_auth" });
    // An older server's value, `basic`, is read as the same screen.
    await server.api("POST", "/config/login_provider/", { token: staff.token, body: { value: "basic" } });
    expect((await server.api("GET", "/config/login_provider/")).body.d).toBe("basic_auth");
  });

  it("POST /config/{key}/ takes switches and times as its form strings", async () => {
    expect((await server.api("POST", "/config/enable_scoreboard/", { token: staff.token, body: { value: "false" } })).body.d).toBe(false);
    expect((await server.api("POST", "/config/enable_scoreboard/", { token: staff.token, body: { value: "true" } })).body.d).toBe(true);
    expect((await server.api("POST", "/config/end_time/", { token: staff.token, body: { value: "4102444800" } })).body.d).toBe(4_102_444_800);
    expect((await server.api("POST", "/config/end_time/", { token: staff.token, body: { value: null } })).body.d).toBeNull();
    expect((await server.api("POST", "/config/team_size/", { token: staff.token, body: { value: "four" } })).status).toBe(400);
  });

  it("GET /stats/countdown/ gives server_timestamp as a date `new Date(...)` reads", async () => {
    server.world.setNow(1_767_225_600); // 2026-01-01T00:00:00Z
    const res = await server.api("GET", "/stats/countdown/");
    const offset = new Date(res.body.d.server_timestamp).getTime() - 1_767_225_600_000;
    expect(offset).toBe(0);
    server.world.setNow(null);
  });

  it("GET /pages/ returns each url as it was saved, so `<Route path={page.url}>` matches /rules", async () => {
    await server.api("POST", "/pages/", { token: staff.token, body: { url: "/rules", title: "Rules", content: "Be nice." } });
    const res = await server.api("GET", "/pages/");
    expect(res.body.d).toContainEqual(expect.objectContaining({ url: "/rules", title: "Rules" }));
  });
});

describe("RACTF's client: a player's first visit", () => {
  it("POST /auth/register/ {username, password, email}", async () => {
    const res = await server.api("POST", "/auth/register/", { body: { username: "shell-player", password: "a Correct horse 42!", email: "shell@example.test" } });
    expect(res.status).toBe(201);
  });

  it("POST /auth/login/ {username, password, otp: null}", async () => {
    const res = await server.api("POST", "/auth/login/", { body: { username: "shell-player", password: "a Correct horse 42!", otp: null } });
    expect(res.status).toBe(200);
    token = res.body.d.token;
    const self = await server.api("GET", "/member/self/", as(token));
    expect(self.body.d).toMatchObject({ username: "shell-player", team: null });
    userId = self.body.d.id;
  });

  it("GET /team/groups/ for the team-creation screen's group list", async () => {
    groupId = (await server.api("POST", "/team/groups/", { token: staff.token, body: { name: "Students", description: "", is_self_assignable: true, has_own_leaderboard: true } })).body.d.id;
    const res = await server.api("GET", "/team/groups/", as(token));
    expect(res.status).toBe(200);
    expect(res.body.d.results).toEqual([{ id: groupId, name: "Students", description: "", is_self_assignable: true, has_own_leaderboard: true }]);
  });

  it("POST /team/create/ {name, password, leaderboard_group} then GET /team/self", async () => {
    // A select's value arrives as a string.
    const res = await server.api("POST", "/team/create/", { ...as(token), body: { name: "Shell Crew", password: "hunter2hunter2", leaderboard_group: String(groupId) } });
    expect(res.status).toBe(201);
    const team = await server.api("GET", "/team/self", as(token));
    expect(team.body.d).toMatchObject({ name: "Shell Crew", leaderboard_group: groupId, members: [{ id: userId, username: "shell-player" }] });
  });
});

describe("RACTF's client: staff build a category, a challenge with a hint, an announcement", () => {
  it("POST /challenges/categories/ {name, metadata: null, description, contained_type}", async () => {
    const res = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Warmup", metadata: null, description: "Easy ones", contained_type: "campaign" } });
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name: "Warmup", description: "Easy ones", contained_type: "campaign" });
    categoryId = res.body.d.id;
  });

  it("POST /challenges/ with the editor's fields, the score typed as a string", async () => {
    const body = {
      category: categoryId,
      name: "Hello",
      score: "100",
      description: "Say **hello**.",
      flag_type: "plaintext",
      flag_metadata: { flag: "ractf{hello}" },
      post_score_explanation: "",
      challenge_metadata: {},
      hidden: false,
      unlock_requirements: "",
      author: "staff",
      files: [],
      tags: [],
      maintenance: false,
      tiebreaker: true,
      challenge_type: "default",
    };
    const res = await server.api("POST", "/challenges/", { token: staff.token, body });
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name: "Hello", score: 100, hidden: false, challenge_type: "default" });
    challengeId = res.body.d.id;
    // Its edit form sends the same fields with strings and string booleans.
    const edited = await server.api("PATCH", `/challenges/${challengeId}`, { token: staff.token, body: { ...body, score: "150", hidden: "false", tiebreaker: "true" } });
    expect(edited.status).toBe(200);
    expect(edited.body.d).toMatchObject({ score: 150, hidden: false, tiebreaker: true });
  });

  it("POST /hints/ {challenge, name, penalty, text} with the penalty typed as a string", async () => {
    const res = await server.api("POST", "/hints/", { token: staff.token, body: { challenge: challengeId, name: "Nudge", penalty: "10", text: "It starts with ractf." } });
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name: "Nudge", penalty: 10 });
  });

  it("POST /announcements/ {title, body}", async () => {
    const res = await server.api("POST", "/announcements/", { token: staff.token, body: { title: "Welcome", body: "Have fun!" } });
    expect(res.status).toBe(201);
    expect((await server.api("GET", "/announcements/", as(token))).body.d).toContainEqual(expect.objectContaining({ title: "Welcome", body: "Have fun!" }));
  });

  it("refuses what the Input rule does not read as a number", async () => {
    for (const score of ["1e3", "", "abc"]) {
      const res = await server.api("PATCH", `/challenges/${challengeId}/`, { token: staff.token, body: { score } });
      expect(res.status).toBe(400);
      expect(res.body.m).toBe("invalid");
      expect(res.body.d).toHaveProperty("score");
    }
  });
});

describe("RACTF's client: the player plays", () => {
  it("GET /challenges/categories/ and /challenges/{id}", async () => {
    const categories = await server.api("GET", "/challenges/categories/", as(token));
    expect(categories.status).toBe(200);
    const category = categories.body.d.find((c: { id: number }) => c.id === categoryId);
    expect(category.challenges).toEqual([expect.objectContaining({ id: challengeId, name: "Hello", score: 150, hints: [expect.objectContaining({ name: "Nudge", penalty: 10, text: "" })] })]);
    const challenge = await server.api("GET", `/challenges/${challengeId}`, as(token));
    expect(challenge.body.d).toMatchObject({ id: challengeId, name: "Hello", solved: false });
  });

  it("POST /challenges/submit_flag/ {challenge, flag}: wrong, then right", async () => {
    const wrong = await server.api("POST", "/challenges/submit_flag/", { ...as(token), body: { challenge: challengeId, flag: "ractf{nope}" } });
    expect(wrong.body).toEqual({ s: true, m: "incorrect_flag", d: { correct: false } });
    const right = await server.api("POST", "/challenges/submit_flag/", { ...as(token), body: { challenge: challengeId, flag: "ractf{hello}" } });
    expect(right.body).toMatchObject({ s: true, m: "correct_flag", d: { correct: true } });
  });

  it("GET /leaderboard/graph/, /leaderboard/user/ and /leaderboard/team/ for the leaderboard, by group too", async () => {
    const graph = await server.api("GET", "/leaderboard/graph/", as(token));
    expect(graph.body.d.team).toEqual([expect.objectContaining({ team_name: "Shell Crew", points: 150, leaderboard_group_name: "Students" })]);
    const users = await server.api("GET", "/leaderboard/user/", as(token));
    expect(users.body.d.results).toContainEqual({ id: userId, username: "shell-player", leaderboard_points: 150 });
    const teams = await server.api("GET", `/leaderboard/team/?group=${groupId}`, as(token));
    expect(teams.body.d.results).toEqual([expect.objectContaining({ name: "Shell Crew", leaderboard_points: 150, leaderboard_group_name: "Students" })]);
  });

  it("GET /member/{id} for the profile page", async () => {
    const res = await server.api("GET", `/member/${userId}`, as(token));
    expect(res.body.d).toMatchObject({ id: userId, username: "shell-player", solves: [expect.objectContaining({ challenge: challengeId, points: 150 })] });
  });
});

/** What the websocket sent, in order. */
const socketPayloads = () => server.world.events.flatMap((e) => (e.kind === "socket" ? [e.payload as Record<string, unknown>] : []));

describe("RACTF's client: the requests that used to end in an error", () => {
  it("the config page's Save: POST /config/enable_force_admin_2fa%20/ (a key we do not know) is stored as given, staff only, and returned by /config/", async () => {
    const save = await server.api("POST", "/config/enable_force_admin_2fa%20/", { token: staff.token, body: { value: false } });
    expect({ status: save.status, body: save.body }).toEqual({ status: 201, body: { s: true, m: "", d: false } });
    expect((await server.api("GET", "/config/", { token: staff.token })).body.d).toMatchObject({ "enable_force_admin_2fa ": false, enable_force_admin_2fa: false });
    // Spelled like a staff-only key, it stays from players like that key.
    expect((await server.api("GET", "/config/", as(token))).body.d).not.toHaveProperty(["enable_force_admin_2fa "]);
    expect((await server.api("GET", "/config/enable_force_admin_2fa%20/", as(token))).status).toBe(403);
    // Any other key: stored as given, returned to everyone like other keys, written by staff only.
    const banner = { text: "Welcome", colour: "#ff0" };
    expect((await server.api("POST", "/config/custom_banner/", { token: staff.token, body: { value: banner } })).status).toBe(201);
    expect((await server.api("GET", "/config/")).body.d.custom_banner).toEqual(banner);
    expect((await server.api("GET", "/config/custom_banner/")).body.d).toEqual(banner);
    expect((await server.api("POST", "/config/custom_banner/", { ...as(token), body: { value: "mine" } })).status).toBe(403);
    expect((await server.api("GET", "/config/custom_banner/")).body.d).toEqual(banner);
    // Keys we know are still checked; an unknown key never stored is still 404.
    expect((await server.api("POST", "/config/team_size/", { token: staff.token, body: { value: "four" } })).status).toBe(400);
    expect((await server.api("GET", "/config/never_set/")).status).toBe(404);
  });

  it("the audit log page: GET /admin/audit_log/ shows config changes as set_config with {key, old_value, new_value}", async () => {
    await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "Shell CTF" } });
    await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "Shell CTF 2" } });
    const log = await server.api("GET", "/admin/audit_log/", { token: staff.token });
    const configs = log.body.d.filter((e: { action: string }) => e.action === "set_config");
    expect(configs[0]).toEqual({ id: expect.any(Number), action: "set_config", user: staff.id, username: staff.username, time: expect.any(String), extra: { key: "event_name", old_value: "Shell CTF", new_value: "Shell CTF 2" } });
    expect(configs.map((e: { extra: unknown }) => e.extra)).toContainEqual({ key: "enable_force_admin_2fa ", old_value: null, new_value: false });
  });

  it("the hint-used popup: POST /hints/use/ {id} sends event 3 whose `challenge` is the challenge's name and `challenge_id` its id", async () => {
    const hint = await server.api("POST", "/hints/", { token: staff.token, body: { challenge: challengeId, name: "Second nudge", penalty: "5", text: "Look closer." } });
    const used = await server.api("POST", "/hints/use/", { ...as(token), body: { id: hint.body.d.id } });
    expect(used.status).toBe(200);
    const event = socketPayloads().findLast((p) => p.event_code === 3);
    expect(event).toMatchObject({ event_code: 3, username: "shell-player", hint_name: "Second nudge", challenge: "Hello", challenge_id: challengeId, challenge_name: "Hello" });
  });

  it("the admin's team editor: PATCH /team/{id}/ with the empty password field it shows leaves the password unchanged", async () => {
    const team = (await server.api("GET", "/team/self", as(token))).body.d;
    const res = await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { name: "Shell Crew", description: "Edited by staff", password: "", is_visible: true } });
    expect({ status: res.status, m: res.body.m }).toEqual({ status: 200, m: "" });
    expect(res.body.d).toMatchObject({ id: team.id, description: "Edited by staff" });
    expect((await server.api("GET", "/team/self", as(token))).body.d).toMatchObject({ password: "hunter2hunter2", description: "Edited by staff" });
    // A password given is still checked and set.
    expect((await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { password: "short" } })).status).toBe(400);
    expect((await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { password: "new-team-secret" } })).status).toBe(200);
    expect((await server.api("GET", "/team/self", as(token))).body.d.password).toBe("new-team-secret");
  });

  it("deleting a challenge: DELETE /challenges/{id}/ sends no challenge-update event (clients would fetch it and get 404)", async () => {
    const created = await server.api("POST", "/challenges/", {
      token: staff.token,
      body: { category: categoryId, name: "Doomed", score: "50", description: "", flag_type: "plaintext", flag_metadata: { flag: "ractf{doomed}" }, challenge_type: "default" },
    });
    const id = created.body.d.id;
    const updates = () => socketPayloads().filter((p) => p.event_code === 6 && p.challenge_id === id);
    expect(updates()).toHaveLength(1);
    expect((await server.api("DELETE", `/challenges/${id}/`, { token: staff.token })).status).toBe(200);
    expect(updates()).toHaveLength(1);
    expect((await server.api("GET", `/challenges/${id}/`, as(token))).status).toBe(404);
    expect((await server.api("GET", "/challenges/categories/", as(token))).body.d.flatMap((c: { challenges: { id: number }[] }) => c.challenges.map((ch) => ch.id))).not.toContain(id);
  });
});
