import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createCategory, createChallenge, createTeamWith } from "@flagship/api/testing";
import { afterAll, describe, expect, it } from "vitest";
import { authHeader, useContractServer } from "../testing.ts";

/**
 * RACTF's own web client, unchanged, against Flagship: the staff pages and live updates that used
 * to end in an error or show nothing. Each request is the one that client sends.
 */
const dataDir = await mkdtemp(path.join(os.tmpdir(), "flagship-ractf-staff-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { server, staff, player } = await useContractServer({ DATA_DIR: dataDir });

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

describe("RACTF's client: the audit log page", () => {
  /** Every value anywhere in an entry's extra, for checks that no secret and no null is drawn. */
  const leaves = (value: unknown): unknown[] =>
    value !== null && typeof value === "object" ? Object.values(value as Record<string, unknown>).flatMap(leaves) : [value];

  it("GET /admin/audit_log/ answers every staff write as create_model, update_model or destroy_model with upstream's fields, secrets left out", async () => {
    const since = (await server.world.services.db.auditLog.aggregate({ _max: { id: true } }))._max.id ?? 0;
    const category = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Audited", metadata: null, description: "", contained_type: "jeopardy" } });
    const challenge = await server.api("POST", "/challenges/", {
      token: staff.token,
      body: { category: category.body.d.id, name: "Audited one", score: "100", description: "", flag_type: "plaintext", flag_metadata: { flag: "ractf{audit-secret}" }, challenge_type: "default", author: "" },
    });
    const id = challenge.body.d.id;
    await server.api("PATCH", `/challenges/${id}/`, { token: staff.token, body: { name: "Audited two", score: "150", flag_metadata: { flag: "ractf{new-secret}" }, author: "staff" } });
    const team = await createTeamWith(server.world, 1);
    await server.api("PATCH", `/team/${team.id}/`, { token: staff.token, body: { description: "Checked", password: "brand-new-team-secret" } });
    await server.api("PATCH", `/member/${team.members[0]!.id}/`, { token: staff.token, body: { bio: "Audited bio", is_visible: "false" } });
    await server.api("DELETE", `/challenges/${id}/`, { token: staff.token });

    const log = await server.api("GET", "/admin/audit_log/", { token: staff.token });
    expect(log.status).toBe(200);
    const entries = (log.body.d as { id: number; action: string; extra: Record<string, unknown> }[]).filter((e) => e.id > since).reverse();
    expect(entries.map((e) => [e.action, e.extra.model_name])).toEqual([
      ["create_model", "Category"],
      ["create_model", "Challenge"],
      ["update_model", "Challenge"],
      ["update_model", "Team"],
      ["update_model", "Member"],
      ["destroy_model", "Challenge"],
    ]);
    const [createdCategory, created, updated, teamEdit, memberEdit, destroyed] = entries;
    expect(createdCategory!.extra).toMatchObject({ model_id: category.body.d.id, model_fields: { id: category.body.d.id, name: "Audited" } });
    expect(created!.extra).toEqual({ model_name: "Challenge", model_id: id, model_fields: { id, name: "Audited one", category: category.body.d.id } });
    // The flag changed too, but its values are never in the log.
    expect(updated!.extra).toEqual({
      model_name: "Challenge",
      model_id: id,
      updated_fields: { name: { old: "Audited one", new: "Audited two" }, score: { old: 100, new: 150 }, author: { old: "", new: "staff" } },
    });
    expect(teamEdit!.extra).toEqual({ model_name: "Team", model_id: team.id, updated_fields: { description: { old: "", new: "Checked" } } });
    expect(memberEdit!.extra).toEqual({ model_name: "Member", model_id: team.members[0]!.id, updated_fields: { bio: { old: "", new: "Audited bio" }, is_visible: { old: true, new: false } } });
    expect(destroyed!.extra).toEqual({ model_name: "Challenge", model_id: id, model_fields: { id, name: "Audited two" } });

    // Nothing the client's tree cannot draw (it opens every object, and null is one), no secret.
    const values = entries.flatMap((e) => leaves(e.extra));
    expect(values).not.toContain(null);
    for (const secret of ["ractf{audit-secret}", "ractf{new-secret}", "brand-new-team-secret"]) expect(JSON.stringify(log.body.d)).not.toContain(secret);
  });
});

describe("RACTF's client: the leaderboard's graph", () => {
  it("GET /leaderboard/graph/ after decay re-scores: each team's and user's series sums to its points in the table", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id, { score: 900, pointsType: "decay", flagMetadata: { flag: "flag{right}", decay_constant: 0.5, min_points: 100 } });
    const solvers = [await createTeamWith(server.world), await createTeamWith(server.world), await createTeamWith(server.world)];
    for (const team of solvers) {
      const res = await server.api("POST", "/challenges/submit_flag/", { token: team.members[0]!.token, body: { challenge: challenge.id, flag: "flag{right}" } });
      expect(res.body.m).toBe("correct_flag");
    }
    const graph = (await server.api("GET", "/leaderboard/graph/")).body.d;
    const teams = (await server.api("GET", "/leaderboard/team/?limit=10")).body.d.results;
    const users = (await server.api("GET", "/leaderboard/user/?limit=10")).body.d.results;
    const sum = (points: { points: number }[]) => points.reduce((total, p) => total + p.points, 0);
    // The first solver's one solve: worth 900 when made, 300 after two more (100 + 800 * 0.5^2).
    expect(graph.team.filter((p: { team_name: string }) => p.team_name === solvers[0]!.name).map((p: { points: number }) => p.points)).toEqual([300]);
    for (const row of teams) expect({ team: row.name, graph: sum(graph.team.filter((p: { team_name: string }) => p.team_name === row.name)) }).toEqual({ team: row.name, graph: row.leaderboard_points });
    for (const row of users) expect({ user: row.username, graph: sum(graph.user.filter((p: { user_name: string }) => p.user_name === row.username)) }).toEqual({ user: row.username, graph: row.leaderboard_points });
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

/** The body RACTF's client sends for a form: `new FormData()` with each value appended, as a browser encodes it. */
async function formBody(entries: [string, string | Blob, string?][]): Promise<{ payload: Buffer; contentType: string }> {
  const data = new FormData();
  for (const [name, value, filename] of entries) {
    if (typeof value === "string") data.append(name, value);
    else data.append(name, value, filename);
  }
  const encoded = new Request("http://localhost/", { method: "POST", body: data });
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}

async function postForm(url: string, body: { payload: Buffer; contentType: string }, user = staff) {
  const res = await server.app.inject({ method: "POST", url: `/api/v2${url}`, headers: { ...authHeader(user), "content-type": body.contentType }, payload: body.payload });
  return { status: res.statusCode, body: res.json() as { s: boolean; m: string; d: any } };
}

/** The folders of stored uploads: a refused form must leave none behind. */
const storedUploads = async () => readdir(path.join(dataDir, "files")).catch(() => [] as string[]);

describe("RACTF's client: the challenge editor's files (multipart/form-data)", () => {
  it("the Upload tab: {challenge, upload} stores the file, attaches it and serves it to players", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const res = await postForm("/challenges/files/", await formBody([["challenge", String(challenge.id)], ["upload", new Blob(["hello, players"]), "notes v2.txt"]]));
    expect(res).toEqual({
      status: 201,
      body: { s: true, m: "", d: { id: expect.any(Number), name: "notes v2.txt", url: expect.stringMatching(/^\/files\/[0-9a-f]{32}\/notes%20v2\.txt$/), size: 14, challenge: challenge.id } },
    });
    const download = await server.app.inject({ method: "GET", url: res.body.d.url });
    expect({ status: download.statusCode, body: download.body }).toEqual({ status: 200, body: "hello, players" });
    const team = await createTeamWith(server.world);
    const shown = await server.api("GET", `/challenges/${challenge.id}/`, { token: team.members[0]!.token });
    expect(shown.body.d.files).toEqual([{ id: res.body.d.id, name: "notes v2.txt", url: res.body.d.url, size: 14 }]);
    const audit = await server.world.services.db.auditLog.findFirst({ where: { action: "create_file" }, orderBy: { id: "desc" } });
    expect(audit?.extra).toMatchObject({ id: res.body.d.id, challenge: challenge.id });
  });

  it("the Upload tab over a real connection, the form streamed as a browser sends it", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const address = await server.app.listen({ port: 0, host: "127.0.0.1" });
    const data = new FormData();
    data.append("challenge", String(challenge.id));
    data.append("upload", new Blob([new Uint8Array(3 * 1024 * 1024).fill(7)]), "three-megabytes.bin");
    const res = await fetch(`${address}/api/v2/challenges/files/`, { method: "POST", headers: authHeader(staff), body: data });
    expect(res.status).toBe(201);
    const { d } = (await res.json()) as { d: { url: string; size: number } };
    expect(d.size).toBe(3 * 1024 * 1024);
    const download = await fetch(`${address}${d.url}`);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.alloc(3 * 1024 * 1024, 7))).toBe(true);
  });

  it("the Upload tab in either order of its fields, the file before the challenge too", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const res = await postForm("/challenges/files/", await formBody([["upload", new Blob([new Uint8Array([0, 1, 2, 255])]), "disk.img"], ["challenge", String(challenge.id)]]));
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name: "disk.img", size: 4, challenge: challenge.id });
  });

  it("the Link tab: {name, url, size, challenge} as strings attaches a link", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const res = await postForm("/challenges/files/", await formBody([["name", "big.pcap"], ["url", "https://files.example.test/big.pcap"], ["size", "123456789"], ["challenge", String(challenge.id)]]));
    expect(res).toEqual({ status: 201, body: { s: true, m: "", d: { id: expect.any(Number), name: "big.pcap", url: "https://files.example.test/big.pcap", size: 123_456_789, challenge: challenge.id } } });
    // The JSON body is still accepted.
    const json = await server.api("POST", "/challenges/files/", { token: staff.token, body: { name: "a.txt", url: "/a.txt", size: 1, challenge: challenge.id } });
    expect(json.status).toBe(201);
  });

  it("refuses bad forms with the documented answer, never a 500, storing nothing", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const before = { files: await server.world.services.db.file.count(), uploads: await storedUploads() };
    const file = (): [string, Blob, string] => ["upload", new Blob(["data"]), "a.txt"];

    // An unknown challenge: the upload already written is removed again.
    const unknown = await postForm("/challenges/files/", await formBody([file(), ["challenge", "999999"]]));
    expect({ status: unknown.status, m: unknown.body.m, d: unknown.body.d }).toEqual({ status: 400, m: "invalid", d: { challenge: [expect.any(String)] } });
    const missing = await postForm("/challenges/files/", await formBody([file()]));
    expect({ status: missing.status, m: missing.body.m }).toEqual({ status: 400, m: "required" });
    // A link without its fields.
    const bare = await postForm("/challenges/files/", await formBody([["challenge", String(challenge.id)]]));
    expect({ status: bare.status, m: bare.body.m }).toEqual({ status: 400, m: "required" });
    // Two files at once.
    const two = await postForm("/challenges/files/", await formBody([["challenge", String(challenge.id)], file(), ["other", new Blob(["x"]), "b.txt"]]));
    expect({ status: two.status, m: two.body.m }).toEqual({ status: 400, m: "bad_request" });
    // Malformed: cut short, no boundary, garbage.
    const whole = await formBody([["challenge", String(challenge.id)], file()]);
    const cut = await postForm("/challenges/files/", { ...whole, payload: whole.payload.subarray(0, whole.payload.length - 20) });
    // Cut inside the file: the upload did not complete.
    expect({ status: cut.status, m: cut.body.m }).toEqual({ status: 400, m: "bad_request" });
    const cutInField = await postForm("/challenges/files/", { ...whole, payload: whole.payload.subarray(0, whole.payload.indexOf("\r\n", 60) + 2) });
    expect({ status: cutInField.status, m: cutInField.body.m }).toEqual({ status: 400, m: "parse_error" });
    const noBoundary = await postForm("/challenges/files/", { payload: whole.payload, contentType: "multipart/form-data" });
    expect({ status: noBoundary.status, m: noBoundary.body.m }).toEqual({ status: 400, m: "parse_error" });
    const garbage = await postForm("/challenges/files/", { payload: Buffer.from("this is not a form"), contentType: "multipart/form-data; boundary=xyz" });
    expect({ status: garbage.status, m: garbage.body.m }).toEqual({ status: 400, m: "parse_error" });
    // Players cannot attach files.
    const denied = await postForm("/challenges/files/", whole, player);
    expect({ status: denied.status, m: denied.body.m }).toEqual({ status: 403, m: "permission_denied" });

    expect({ files: await server.world.services.db.file.count(), uploads: await storedUploads() }).toEqual(before);
  });

  it("refuses a file over 100 MB (400, the limit in `d` for the client's alert), keeping nothing of it", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const before = await storedUploads();
    const res = await postForm("/challenges/files/", await formBody([["challenge", String(challenge.id)], ["upload", new Blob([new Uint8Array(100 * 1024 * 1024 + 1)]), "huge.bin"]]));
    expect(res).toEqual({ status: 400, body: { s: false, m: "bad_request", d: "Files may be at most 100 MB." } });
    expect(await storedUploads()).toEqual(before);
    expect(await server.world.services.db.file.count({ where: { challengeId: challenge.id } })).toBe(0);
  }, 60_000);

  it("the file editor: PATCH /challenges/files/{id} {name, url, size} as a form", async () => {
    const category = await createCategory(server.world);
    const challenge = await createChallenge(server.world, category.id);
    const link = await postForm("/challenges/files/", await formBody([["name", "old.txt"], ["url", "/old.txt"], ["size", "1"], ["challenge", String(challenge.id)]]));
    const form = await formBody([["name", "new.txt"], ["url", "https://files.example.test/new.txt"], ["size", "2048"]]);
    const res = await server.app.inject({ method: "PATCH", url: `/api/v2/challenges/files/${link.body.d.id}`, headers: { ...authHeader(staff), "content-type": form.contentType }, payload: form.payload });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 200,
      body: { s: true, m: "", d: { id: link.body.d.id, name: "new.txt", url: "https://files.example.test/new.txt", size: 2048, challenge: challenge.id } },
    });
    const bad = await formBody([["size", "lots"]]);
    const refused = await server.app.inject({ method: "PATCH", url: `/api/v2/challenges/files/${link.body.d.id}/`, headers: { ...authHeader(staff), "content-type": bad.contentType }, payload: bad.payload });
    expect({ status: refused.statusCode, m: refused.json().m }).toEqual({ status: 400, m: "invalid" });
  });

  it("other paths still answer a form 415", async () => {
    const res = await postForm("/challenges/", await formBody([["name", "Form"]]));
    expect({ status: res.status, m: res.body.m }).toEqual({ status: 415, m: "unsupported_media_type" });
  });
});
