import { createUser, type TestUser } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../../testing.ts";

let server: TestServer;
let staff: TestUser;
let alice: TestUser;
let bob: TestUser;
let loner: TestUser;
let teamId: number;
let categoryId: number;
let challengeId: number;
let lockedId: number;
let hintId: number;

async function team(name: string, ...users: TestUser[]): Promise<number> {
  const created = await server.world.services.db.team.create({ data: { name, password: "secret-123", ownerId: users[0]!.id }, select: { id: true } });
  await server.world.services.db.user.updateMany({ where: { id: { in: users.map((u) => u.id) } }, data: { teamId: created.id } });
  for (const u of users) u.actor.teamId = created.id;
  return created.id;
}

beforeAll(async () => {
  server = await createTestServer();
  staff = await createUser(server.world, { isStaff: true });
  alice = await createUser(server.world);
  bob = await createUser(server.world);
  loner = await createUser(server.world);
  teamId = await team("Contractors", alice, bob);
});
afterAll(() => server.close());

describe("staff writes over REST", () => {
  it("POST /challenges/categories/ creates a category (201)", async () => {
    const res = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Web", contained_type: "jeopardy", description: "Web things" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ s: true, m: "", d: { id: expect.any(Number), name: "Web", contained_type: "jeopardy", display_order: 0, challenges: [] } });
    categoryId = res.body.d.id;
  });

  it("POST /challenges/ creates challenges; players get 403, anonymous 401", async () => {
    const body = { category: categoryId, name: "Cookie Monster", score: 200, description: "Eat the **cookie**.", flag_type: "plaintext", flag_metadata: { flag: "flag{cookie}" }, author: "sam", tags: ["web"] };
    expect((await server.api("POST", "/challenges/", { token: alice.token, body })).status).toBe(403);
    expect((await server.api("POST", "/challenges/", { body })).status).toBe(401);
    const res = await server.api("POST", "/challenges/", { token: staff.token, body });
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name: "Cookie Monster", score: 200, current_score: 200, flag_metadata: { flag: "flag{cookie}" }, tags: [{ type: "tag", text: "web" }], tiebreaker: true });
    challengeId = res.body.d.id;
    const locked = await server.api("POST", "/challenges/", { token: staff.token, body: { ...body, name: "Second Helping", unlock_requirements: `${challengeId}` } });
    lockedId = locked.body.d.id;
  });

  it("refuses an invalid unlock expression with 400 invalid and the parser's message", async () => {
    const res = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, name: "Bad", score: 1, flag_metadata: { flag: "x" }, unlock_requirements: "1 OR" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ s: false, m: "invalid", d: { unlock_requirements: ["Binary operation 'OR' needs two operands"] } });
    const blank = await server.api("PATCH", `/challenges/${challengeId}/`, { token: staff.token, body: { unlock_requirements: "  " } });
    expect(blank.body).toEqual({ s: false, m: "invalid", d: { unlock_requirements: ["Stack exhausted. Nothing to do."] } });
  });

  it("answers 400 required for a missing name", async () => {
    const res = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, score: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.m).toBe("required");
    expect(res.body.d.name).toEqual(["This field is required"]);
  });

  it("POST /hints/ and /challenges/files/ add to a challenge; PATCH edits", async () => {
    const hint = await server.api("POST", "/hints/", { token: staff.token, body: { challenge: challengeId, name: "Crumbs", penalty: 50, text: "Check document.cookie" } });
    expect(hint.status).toBe(201);
    expect(hint.body.d).toEqual({ id: expect.any(Number), name: "Crumbs", penalty: 50, text: "Check document.cookie", challenge: challengeId, requirements: [] });
    hintId = hint.body.d.id;
    const file = await server.api("POST", "/challenges/files/", { token: staff.token, body: { challenge: challengeId, name: "source.zip", url: "/files/source.zip", size: 4096 } });
    expect(file.status).toBe(201);
    const patched = await server.api("PATCH", `/challenges/files/${file.body.d.id}/`, { token: staff.token, body: { size: 8192 } });
    expect(patched.body.d).toMatchObject({ name: "source.zip", size: 8192 });
    const edited = await server.api("PATCH", `/challenges/${challengeId}/`, { token: staff.token, body: { post_score_explanation: "Cookies were unsigned." } });
    expect(edited.status).toBe(200);
    expect(edited.body.d.post_score_explanation).toBe("Cookies were unsigned.");
  });

  it("takes file URLs over http, https or a path on this site; anything else is 400 invalid on url and changes nothing", async () => {
    const message = "Enter an http or https URL, or a path on this site starting with /.";
    for (const url of ["https://cdn.example.com/a.zip", "http://files.example.com/b.tar.gz", "/files/c.bin"]) {
      const ok = await server.api("POST", "/challenges/files/", { token: staff.token, body: { challenge: challengeId, name: "ok.bin", url, size: 1 } });
      expect({ url, status: ok.status }).toEqual({ url, status: 201 });
      await server.api("DELETE", `/challenges/files/${ok.body.d.id}/`, { token: staff.token });
    }
    const before = await server.world.services.db.file.count();
    for (const url of ["javascript:alert(document.cookie)", " JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>", "//evil.example/x", "file:///etc/passwd", "vbscript:x", "files/relative.zip"]) {
      const created = await server.api("POST", "/challenges/files/", { token: staff.token, body: { challenge: challengeId, name: "bad.bin", url, size: 1 } });
      expect({ url, status: created.status, body: created.body }).toEqual({ url, status: 400, body: { s: false, m: "invalid", d: { url: [message] } } });
    }
    const file = await server.world.services.db.file.findFirstOrThrow({ where: { challengeId }, select: { id: true, url: true } });
    const patched = await server.api("PATCH", `/challenges/files/${file.id}/`, { token: staff.token, body: { url: "javascript:alert(1)" } });
    expect({ status: patched.status, m: patched.body.m }).toEqual({ status: 400, m: "invalid" });
    const inline = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, name: "Bad Files", score: 1, files: [{ name: "x", url: "data:text/html,hi", size: 1 }] } });
    expect({ status: inline.status, m: inline.body.m }).toEqual({ status: 400, m: "invalid" });
    expect(await server.world.services.db.file.count()).toBe(before);
    expect((await server.world.services.db.file.findUniqueOrThrow({ where: { id: file.id } })).url).toBe(file.url);
  });

  it("refuses a regex flag RE2 cannot run, saying why", async () => {
    const res = await server.api("POST", "/challenges/", {
      token: staff.token,
      body: { category: categoryId, name: "Lookahead", score: 1, flag_type: "regex", flag_metadata: { flag: "flag\\{(?=a)a+\\}" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.m).toBe("invalid");
    expect(JSON.stringify(res.body.d)).toMatch(/RE2 syntax \(no backreferences or lookaround\)/);
  });
});

describe("player reads", () => {
  it("GET /challenges/categories/ lists full challenges and locked stubs, without flags", async () => {
    const res = await server.api("GET", "/challenges/categories/", { token: alice.token });
    expect(res.status).toBe(200);
    const web = res.body.d.find((c: { id: number }) => c.id === categoryId);
    expect(web).toMatchObject({ name: "Web", contained_type: "jeopardy", description: "Web things", metadata: {} });
    const full = web.challenges.find((c: { id: number }) => c.id === challengeId);
    expect(full).toMatchObject({
      name: "Cookie Monster",
      challenge_type: "default",
      flag_type: "plaintext",
      points_type: "basic",
      author: "sam",
      score: 200,
      current_score: 200,
      hints: [{ id: hintId, name: "Crumbs", penalty: 50, text: "", used: false, requirements: [] }],
      files: [{ id: expect.any(Number), name: "source.zip", url: "/files/source.zip", size: 8192 }],
      solved: false,
      unlocked: true,
      first_blood: null,
      solve_count: 0,
      hidden: false,
      maintenance: false,
      votes: { positive: 0, negative: 0, self: null },
      post_score_explanation: "",
    });
    const stub = web.challenges.find((c: { id: number }) => c.id === lockedId);
    expect(stub).not.toHaveProperty("name");
    expect(JSON.stringify(res.body)).not.toContain("flag{cookie}");
  });

  it("GET /challenges/{id}/ answers the same object; 404 for unknown ids", async () => {
    const res = await server.api("GET", `/challenges/${challengeId}`, { token: alice.token });
    expect(res.body.d).toMatchObject({ id: challengeId, name: "Cookie Monster" });
    expect((await server.api("GET", "/challenges/999999/", { token: alice.token })).status).toBe(404);
    expect((await server.api("GET", "/challenges/abc/", { token: alice.token })).status).toBe(404);
  });

  it("answers 403 before the start, never leaking the list", async () => {
    await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: 4_000_000_000 } });
    const res = await server.api("GET", "/challenges/categories/", { token: alice.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ s: false, m: "permission_denied", d: "" });
    expect((await server.api("GET", "/challenges/categories/", { token: staff.token })).status).toBe(200);
    await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: null } });
  });
});

describe("playing", () => {
  it("POST /hints/use/ reveals the hint; a second use is 403 hint_already_used", async () => {
    const res = await server.api("POST", "/hints/use/", { token: alice.token, body: { id: hintId } });
    expect(res.body).toEqual({ s: true, m: "", d: { id: hintId, name: "Crumbs", penalty: 50, challenge: challengeId, text: "Check document.cookie", used: true } });
    const again = await server.api("POST", "/hints/use/", { token: bob.token, body: { id: hintId } });
    expect(again.status).toBe(403);
    expect(again.body.m).toBe("hint_already_used");
    const locked = await server.api("POST", "/hints/use/", { token: bob.token, body: { id: 999999 } });
    expect(locked.status).toBe(404);
  });

  it("POST /hints/use/ answers challenge_not_unlocked before hint_already_used, as the contract orders them", async () => {
    const hint = await server.api("POST", "/hints/", { token: staff.token, body: { challenge: lockedId, name: "Seconds", penalty: 5, text: "More cookies" } });
    // A use left over from before the challenge was locked again: both refusals apply.
    await server.world.services.db.hintUse.create({ data: { hintId: hint.body.d.id, teamId, userId: alice.id, challengeId: lockedId } });
    const res = await server.api("POST", "/hints/use/", { token: bob.token, body: { id: hint.body.d.id } });
    expect(res.status).toBe(403);
    expect(res.body.m).toBe("challenge_not_unlocked");
  });

  it("POST /challenges/vote/ and /feedback/ check authentication before the body (401, not 400)", async () => {
    for (const path of ["/challenges/vote/", "/challenges/feedback/"]) {
      const res = await server.api("POST", path, { body: {} });
      expect(res.status).toBe(401);
      expect(res.body.m).toBe("not_authenticated");
    }
  });

  it("POST /challenges/submit_flag/ answers each reply code of the contract", async () => {
    const submit = (token: string, body: unknown) => server.api("POST", "/challenges/submit_flag/", { token, body });
    expect((await submit(loner.token, { challenge: challengeId, flag: "flag{cookie}" })).body).toMatchObject({ s: false, m: "permission_denied" });
    expect((await submit(alice.token, { challenge: challengeId })).body).toEqual({ s: false, m: "required", d: { flag: ["This field is required"] } });
    expect((await submit(alice.token, { challenge: 999999, flag: "x" })).status).toBe(404);
    const lockedRes = await submit(alice.token, { challenge: lockedId, flag: "flag{cookie}" });
    expect(lockedRes.status).toBe(403);
    expect(lockedRes.body.m).toBe("challenge_not_unlocked");
    const wrong = await submit(alice.token, { challenge: challengeId, flag: "flag{biscuit}" });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ s: true, m: "incorrect_flag", d: { correct: false } });
    const right = await submit(bob.token, { challenge: `${challengeId}`, flag: "flag{cookie}" });
    expect(right.body).toEqual({ s: true, m: "correct_flag", d: { correct: true, explanation: "Cookies were unsigned." } });
    const again = await submit(alice.token, { challenge: challengeId, flag: "flag{cookie}" });
    expect(again.status).toBe(403);
    expect(again.body.m).toBe("already_solved_challenge");
    await server.api("POST", "/config/enable_flag_submission/", { token: staff.token, body: { value: false } });
    const off = await submit(alice.token, {});
    expect(off.status).toBe(403);
    expect(off.body.m).toBe("flag_submission_disabled");
    await server.api("POST", "/config/enable_flag_submission/", { token: staff.token, body: { value: true } });
    const solve = await server.world.services.db.solve.findFirstOrThrow({ where: { teamId, challengeId } });
    expect(solve).toMatchObject({ points: 200, penalty: 50, firstBlood: true });
  });

  it("attempt_limit_reached once the team spent its attempts", async () => {
    const created = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, name: "Three Tries", score: 10, flag_metadata: { flag: "flag{3}" }, attempt_limit: 2 } });
    const id = created.body.d.id;
    const replies = await Promise.all([alice, bob, alice].map((u) => server.api("POST", "/challenges/submit_flag/", { token: u.token, body: { challenge: id, flag: "flag{no}" } })));
    expect(replies.map((r) => r.body.m).sort()).toEqual(["attempt_limit_reached", "incorrect_flag", "incorrect_flag"]);
    expect(replies.find((r) => r.body.m === "attempt_limit_reached")!.body).toEqual({ s: true, m: "attempt_limit_reached", d: { correct: false } });
  });

  it("POST /challenges/check_flag/, /vote/ and /feedback/ after a solve", async () => {
    expect((await server.api("POST", "/challenges/vote/", { token: loner.token, body: { challenge: challengeId, positive: true } })).body.m).toBe("challenge_not_solved");
    const vote = await server.api("POST", "/challenges/vote/", { token: alice.token, body: { challenge: challengeId, positive: true } });
    expect(vote.body).toEqual({ s: true, m: "", d: { positive: 1, negative: 0, self: true } });
    const feedback = await server.api("POST", "/challenges/feedback/", { token: alice.token, body: { challenge: challengeId, feedback: "Tasty" } });
    expect(feedback.status).toBe(200);
    const check = await server.api("POST", "/challenges/check_flag/", { token: alice.token, body: { challenge: challengeId, flag: "flag{cookie}" } });
    expect(check.body).toEqual({ s: true, m: "correct_flag", d: { correct: true } });
    const notSolved = await server.api("POST", "/challenges/check_flag/", { token: alice.token, body: { challenge: lockedId, flag: "x" } });
    expect(notSolved.status).toBe(403);
    expect(notSolved.body.m).toBe("havent_solved_challenge");
  });

  it("accepts a map flag as an array or a string", async () => {
    const created = await server.api("POST", "/challenges/", {
      token: staff.token,
      body: { category: categoryId, name: "Where", score: 10, challenge_type: "map", flag_type: "map", flag_metadata: { location: [40.7, -74.0], radius: 2 } },
    });
    const id = created.body.d.id;
    expect((await server.api("POST", "/challenges/submit_flag/", { token: alice.token, body: { challenge: id, flag: "51.5,-0.1" } })).body.m).toBe("incorrect_flag");
    expect((await server.api("POST", "/challenges/submit_flag/", { token: alice.token, body: { challenge: id, flag: [40.71, -74.0] } })).body.m).toBe("correct_flag");
  });
});

describe("staff deletes", () => {
  it("DELETE answers 200 with d \"\"; unknown ids 404", async () => {
    expect((await server.api("DELETE", `/hints/${hintId}/`, { token: staff.token })).body).toEqual({ s: true, m: "", d: "" });
    expect((await server.api("DELETE", `/hints/${hintId}/`, { token: staff.token })).status).toBe(404);
    expect((await server.api("DELETE", `/challenges/${lockedId}/`, { token: staff.token })).body).toEqual({ s: true, m: "", d: "" });
    expect((await server.api("PATCH", `/challenges/categories/${categoryId}/`, { token: staff.token, body: { name: "Webby" } })).body.d.name).toBe("Webby");
    expect((await server.api("DELETE", `/challenges/categories/${categoryId}/`, { token: staff.token })).status).toBe(200);
    expect((await server.api("GET", `/challenges/${challengeId}/`, { token: staff.token })).status).toBe(404);
    expect((await server.api("GET", "/challenges/categories/", { token: alice.token })).body.d).toEqual([]);
  });
});
