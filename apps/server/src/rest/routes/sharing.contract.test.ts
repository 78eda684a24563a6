import { createTeamWith, type TestTeam } from "@flagship/api/testing";
import { deriveTeamFlag } from "@flagship/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server, staff } = await useContractServer();
let alpha: TestTeam;
let bravo: TestTeam;
let dynamicId: number;
let plainId: number;
let secret: string;

beforeAll(async () => {
  alpha = await createTeamWith(server.world);
  bravo = await createTeamWith(server.world);
  const category = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Shared", contained_type: "jeopardy", description: "" } });
  const base = { category: category.body.d.id, description: "", challenge_type: "default", score: 100 };
  const dynamic = await server.api("POST", "/challenges/", { token: staff.token, body: { ...base, name: "Per team", flag_type: "dynamic", flag_metadata: {} } });
  expect(dynamic.status).toBe(201);
  dynamicId = dynamic.body.d.id;
  secret = dynamic.body.d.flag_metadata.secret;
  plainId = (await server.api("POST", "/challenges/", { token: staff.token, body: { ...base, name: "Plain", flag_type: "plaintext", flag_metadata: { flag: "flag{x}" } } })).body.d.id;
});

describe("GET /challenges/{id}/team_flag/{team_id}/", () => {
  it("answers a team's flag to staff", async () => {
    const res = await server.api("GET", `/challenges/${dynamicId}/team_flag/${alpha.id}/`, { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ s: true, m: "", d: { flag: deriveTeamFlag(secret, alpha.id, "flag") } });
  });

  it("is 403 for players (even for their own team) and 401 without a token", async () => {
    expect((await server.api("GET", `/challenges/${dynamicId}/team_flag/${alpha.id}/`, { token: alpha.members[0]!.token })).status).toBe(403);
    expect((await server.api("GET", `/challenges/${dynamicId}/team_flag/${alpha.id}/`)).status).toBe(401);
  });

  it("is 404 for an unknown challenge or team and 400 for a challenge without per-team flags", async () => {
    expect((await server.api("GET", `/challenges/999999/team_flag/${alpha.id}/`, { token: staff.token })).status).toBe(404);
    expect((await server.api("GET", `/challenges/${dynamicId}/team_flag/999999/`, { token: staff.token })).status).toBe(404);
    expect((await server.api("GET", `/challenges/${dynamicId}/team_flag/abc/`, { token: staff.token })).status).toBe(404);
    const plain = await server.api("GET", `/challenges/${plainId}/team_flag/${alpha.id}/`, { token: staff.token });
    expect(plain.status).toBe(400);
  });

  it("never shows the secret to players", async () => {
    const res = await server.api("GET", `/challenges/${dynamicId}/`, { token: alpha.members[0]!.token });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    const list = await server.api("GET", "/challenges/categories/", { token: alpha.members[0]!.token });
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });
});

describe("GET /admin/sharing/", () => {
  it("lists incidents for staff with the challenge, both teams, the time and the addresses", async () => {
    const shared = deriveTeamFlag(secret, alpha.id, "flag");
    const submit = await server.api("POST", "/challenges/submit_flag/", { token: bravo.members[0]!.token, body: { challenge: dynamicId, flag: shared } });
    expect(submit.status).toBe(200);
    expect(submit.body).toMatchObject({ s: true, m: "incorrect_flag", d: { correct: false } });

    const res = await server.api("GET", "/admin/sharing/", { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body.d).toEqual({
      count: 1,
      results: [
        {
          id: expect.any(Number),
          kind: "team_flag",
          challenge: { id: dynamicId, name: "Per team" },
          team: { id: bravo.id, name: bravo.name, is_visible: true },
          other_team: { id: alpha.id, name: alpha.name, is_visible: true },
          user: bravo.members[0]!.id,
          flag: shared,
          ip: expect.any(String),
          other_ips: [],
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });
  });

  it("is staff only", async () => {
    expect((await server.api("GET", "/admin/sharing/", { token: alpha.members[0]!.token })).status).toBe(403);
    expect((await server.api("GET", "/admin/sharing/")).status).toBe(401);
  });
});
