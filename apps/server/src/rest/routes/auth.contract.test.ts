import { configurePasswordHashing, DEFAULT_HASHING } from "@flagship/api";
import { createUser, heldHasher, TEST_PASSWORD, uniqueName } from "@flagship/api/testing";
import { startMailCatcher, type MailCatcher } from "@flagship/api/testing/mail-catcher";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useContractServer, createTestServer, type TestServer } from "../../testing.ts";

const STRONG = "Tangerine-Quokka-Marble-91";
const { server, staff } = await useContractServer();

const reg = (username = uniqueName("rest")) => ({ username, email: `${username}@example.test`, password: STRONG, password2: STRONG, accept: true });

describe("POST /auth/register/", () => {
  it("answers 201 with d {}", async () => {
    const res = await server.api("POST", "/auth/register/", { body: reg() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ s: true, m: "", d: {} });
  });
  it("answers the contract's failures", async () => {
    const taken = reg();
    await server.api("POST", "/auth/register/", { body: taken });
    expect((await server.api("POST", "/auth/register/", { body: { ...reg(), username: taken.username } })).body).toMatchObject({ s: false, m: "email_or_username_in_use" });
    const weak = await server.api("POST", "/auth/register/", { body: { ...reg(), password: "password", password2: "password" } });
    expect(weak.status).toBe(400);
    expect(weak.body.m).toBe("weak_password");
    const long = await server.api("POST", "/auth/register/", { body: { ...reg(), username: "x".repeat(37) } });
    expect([long.status, long.body.m]).toEqual([400, "max_length"]);
    const missing = await server.api("POST", "/auth/register/", { body: { email: "a@b.co", password: STRONG } });
    expect(missing.body).toMatchObject({ m: "required", d: { username: ["This field is required"] } });
    const email = await server.api("POST", "/auth/register/", { body: { ...reg(), email: "not-an-email" } });
    expect([email.status, email.body.m]).toEqual([400, "invalid"]);
  });
  it("is 403 registration_not_open when switched off, and gates invites", async () => {
    await server.api("POST", "/config/enable_registration/", { token: staff.token, body: { value: false } });
    const closed = await server.api("POST", "/auth/register/", { body: reg() });
    expect([closed.status, closed.body.m]).toEqual([403, "registration_not_open"]);
    await server.api("POST", "/config/enable_registration/", { token: staff.token, body: { value: true } });

    await server.api("POST", "/config/invite_required/", { token: staff.token, body: { value: true } });
    expect((await server.api("POST", "/auth/register/", { body: reg() })).body).toMatchObject({ m: "invite_required" });
    const bad = await server.api("POST", "/auth/register/", { body: { ...reg(), invite: "nope" } });
    expect([bad.status, bad.body.m]).toEqual([403, "invalid_invite"]);
    const gen = await server.api("POST", "/auth/generate_invites/", { token: staff.token, body: { amount: 1 } });
    expect(gen.body.d.invite_codes).toHaveLength(1);
    const code = gen.body.d.invite_codes[0];
    expect((await server.api("POST", "/auth/register/", { body: { ...reg(), invite: code } })).status).toBe(201);
    const used = await server.api("POST", "/auth/register/", { body: { ...reg(), invite: code } });
    expect([used.status, used.body.m]).toEqual([403, "invite_already_used"]);
    await server.api("POST", "/config/invite_required/", { token: staff.token, body: { value: false } });
  });
});

describe("POST /auth/login/ and /auth/logout/", () => {
  it("logs in by username or email and answers failures as 401 with d.reason", async () => {
    const user = await createUser(server.world);
    const ok = await server.api("POST", "/auth/login/", { body: { username: user.email, password: TEST_PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body.d.token).toMatch(/^[0-9a-f]{64}$/);
    const bad = await server.api("POST", "/auth/login/", { body: { username: user.username, password: "nope" } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ s: false, m: "incorrect_username_or_password", d: { reason: "incorrect_username_or_password" } });
    const missing = await server.api("POST", "/auth/login/", { body: { username: user.username } });
    expect([missing.status, missing.body.m]).toEqual([400, "required"]);

    await server.api("POST", "/config/enable_login/", { token: staff.token, body: { value: false } });
    expect((await server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } })).body).toEqual({
      s: false,
      m: "login_not_open",
      d: { reason: "login_not_open" },
    });
    await server.api("POST", "/config/enable_login/", { token: staff.token, body: { value: true } });

    const out = await server.api("POST", "/auth/logout/", { token: ok.body.d.token });
    expect(out.status).toBe(200);
    expect((await server.api("GET", "/member/self/", { token: ok.body.d.token })).status).toBe(401);
    expect((await server.api("POST", "/auth/logout/")).status).toBe(401);
  });

  it("lets players log in before the start while enable_prelogin is on (the default), else login_not_open", async () => {
    const user = await createUser(server.world);
    const login = () => server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } });
    expect((await server.api("GET", "/config/enable_prelogin/")).body.d).toBe(true);
    await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: Math.floor(Date.now() / 1000) + 3600 } });
    try {
      const early = await login();
      expect(early.status).toBe(200);
      // Signed in before the start: a team can be formed, the challenges stay locked.
      const team = await server.api("POST", "/team/create/", { token: early.body.d.token, body: { name: `early-${user.id}`, password: "a long team password" } });
      expect(team.status).toBe(201);
      expect((await server.api("GET", "/challenges/categories/", { token: early.body.d.token })).status).toBe(403);
      await server.api("POST", "/config/enable_prelogin/", { token: staff.token, body: { value: false } });
      expect((await login()).body).toEqual({ s: false, m: "login_not_open", d: { reason: "login_not_open" } });
      expect((await server.api("POST", "/auth/login/", { body: { username: staff.username, password: TEST_PASSWORD } })).status).toBe(200);
    } finally {
      await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: null } });
      await server.api("POST", "/config/enable_prelogin/", { token: staff.token, body: { value: true } });
    }
    expect((await login()).status).toBe(200);
  });

  it("answers email_verification_required for an unverified player", async () => {
    const user = await createUser(server.world);
    await server.world.services.db.user.update({ where: { id: user.id }, data: { emailVerified: false } });
    const res = await server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } });
    expect([res.status, res.body.m, res.body.d.reason]).toEqual([401, "email_verification_required", "email_verification_required"]);
  });
});

describe("2FA paths", () => {
  it("add, verify, login_2fa, regenerate, remove", async () => {
    const user = await createUser(server.world);
    const add = await server.api("POST", "/auth/add_2fa/", { token: user.token });
    expect(add.status).toBe(200);
    const secret: string = add.body.d.totp_secret;
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    expect((await server.api("POST", "/auth/verify_2fa/", { token: user.token, body: { otp: "000000" } })).body.d).toEqual({ valid: false });
    const now = Math.floor(Date.now() / 1000);
    const verify = await server.api("POST", "/auth/verify_2fa/", { token: user.token, body: { otp: await generate({ secret, epoch: now - 30 }) } });
    expect(verify.body.d.valid).toBe(true);
    expect(verify.body.d.backup_codes).toHaveLength(10);
    expect((await server.api("POST", "/auth/add_2fa/", { token: user.token })).status).toBe(403);
    expect((await server.api("GET", "/member/self/", { token: user.token })).body.d).toMatchObject({ has_2fa: true });
    expect(JSON.stringify((await server.api("GET", "/member/self/", { token: user.token })).body)).not.toContain(secret);

    const needs = await server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } });
    expect([needs.status, needs.body.m, needs.body.d.reason]).toEqual([401, "2fa_required", "2fa_required"]);
    const failed = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: TEST_PASSWORD, tfa: "12345" } });
    expect([failed.status, failed.body.m]).toEqual([401, "login_failed"]);
    const wrongPw = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: "x", tfa: "123456" } });
    expect(wrongPw.body.m).toBe("incorrect_username_or_password");
    const backup = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: TEST_PASSWORD, tfa: verify.body.d.backup_codes[0] } });
    expect(backup.body.d.token).toMatch(/^[0-9a-f]{64}$/);
    const totp = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: TEST_PASSWORD, tfa: await generate({ secret, epoch: now }) } });
    expect(totp.status).toBe(200);

    const regen = await server.api("POST", "/auth/regenerate_backup_codes/", { token: user.token });
    expect(regen.body.d.backup_codes).toHaveLength(10);
    const wrong = await server.api("POST", "/auth/remove_2fa/", { token: user.token, body: { otp: "000000" } });
    expect([wrong.status, wrong.body.m]).toEqual([401, "code_incorrect"]);
    expect((await server.api("POST", "/auth/remove_2fa/", { token: user.token, body: { otp: await generate({ secret, epoch: now + 30 }) } })).status).toBe(200);
    expect((await server.api("POST", "/auth/remove_2fa/", { token: user.token, body: { otp: "000000" } })).status).toBe(403);
    expect((await server.api("POST", "/auth/regenerate_backup_codes/", { token: user.token })).status).toBe(403);
    const notEnabled = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: TEST_PASSWORD, tfa: "123456" } });
    expect([notEnabled.status, notEnabled.body.m]).toEqual([401, "2fa_not_enabled"]);
  });
});

describe("POST /auth/change_password/", () => {
  it("changes it with the current password", async () => {
    const user = await createUser(server.world);
    const wrong = await server.api("POST", "/auth/change_password/", { token: user.token, body: { old_password: "x", password: STRONG } });
    expect([wrong.status, wrong.body.m]).toEqual([401, "invalid_password"]);
    const weak = await server.api("POST", "/auth/change_password/", { token: user.token, body: { old_password: TEST_PASSWORD, password: "abc" } });
    expect([weak.status, weak.body.m]).toEqual([400, "weak_password"]);
    expect((await server.api("POST", "/auth/change_password/", { token: user.token, body: { old_password: TEST_PASSWORD, password: STRONG } })).status).toBe(200);
  });
});

describe("mail paths (with a real SMTP server)", () => {
  let mailServer: TestServer;
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    mailServer = await createTestServer({ SMTP_URL: catcher.url, PUBLIC_URL: "http://ctf.example" });
    await createUser(mailServer.world, { isStaff: true });
  });
  afterAll(async () => {
    await mailServer.close();
    await catcher.close();
  });
  const link = (text: string, path: string) => {
    const m = new RegExp(`/${path}\\?id=(\\d+)&secret=([0-9a-f]+)`).exec(text)!;
    return { uid: Number(m[1]), token: m[2] };
  };

  it("verify_email and resend_email", async () => {
    const body = reg();
    expect((await mailServer.api("POST", "/auth/register/", { body })).status).toBe(201);
    const first = link((await catcher.waitFor((m) => m.to.includes(body.email))).text, "verify");
    const resend = await mailServer.api("POST", "/auth/resend_email/", { body: { email: body.email } });
    expect(resend.status).toBe(200);
    const second = link((await catcher.waitFor((m) => m.to.includes(body.email) && !m.text.includes(first.token!))).text, "verify");
    const bad = await mailServer.api("POST", "/auth/verify_email/", { body: first });
    expect([bad.status, bad.body.m]).toEqual([404, "invalid_token_or_uid"]);
    const ok = await mailServer.api("POST", "/auth/verify_email/", { body: second });
    expect(ok.status).toBe(200);
    expect(ok.body.d.token).toMatch(/^[0-9a-f]{64}$/);
    const again = await mailServer.api("POST", "/auth/verify_email/", { body: second });
    expect([again.status, again.body.m]).toEqual([400, "email_already_verified"]);
    const already = await mailServer.api("POST", "/auth/resend_email/", { body: { email: body.email } });
    expect([already.status, already.body.m]).toEqual([400, "email_already_verified"]);
    expect((await mailServer.api("POST", "/auth/resend_email/", { body: { email: "no@example.test" } })).status).toBe(404);
  });

  it("request_password_reset and password_reset", async () => {
    const user = await createUser(mailServer.world);
    const unknown = await mailServer.api("POST", "/auth/request_password_reset/", { body: { email: "no@example.test" } });
    expect([unknown.status, unknown.body.m]).toEqual([404, "not_found"]);
    expect((await mailServer.api("POST", "/auth/request_password_reset/", { body: { email: user.email } })).status).toBe(200);
    const l = link((await catcher.waitFor((m) => m.to.includes(user.email))).text, "password_reset");
    const weak = await mailServer.api("POST", "/auth/password_reset/", { body: { ...l, password: "abc" } });
    expect([weak.status, weak.body.m]).toEqual([400, "weak_password"]);
    const ok = await mailServer.api("POST", "/auth/password_reset/", { body: { ...l, password: STRONG } });
    expect(ok.status).toBe(200);
    expect(ok.body.d.token).toMatch(/^[0-9a-f]{64}$/);
    const reused = await mailServer.api("POST", "/auth/password_reset/", { body: { ...l, password: STRONG } });
    expect([reused.status, reused.body.m]).toEqual([404, "invalid_token_or_uid"]);
  });
});

describe("links naming no account", () => {
  it("answer 404 invalid_token_or_uid for a uid that is not a number or is unknown", async () => {
    const token = "f".repeat(64);
    for (const uid of ["abc", "12abc", 999_999]) {
      const reset = await server.api("POST", "/auth/password_reset/", { body: { uid, token, password: STRONG } });
      expect([reset.status, reset.body.m]).toEqual([404, "invalid_token_or_uid"]);
      const verify = await server.api("POST", "/auth/verify_email/", { body: { uid, token } });
      expect([verify.status, verify.body.m]).toEqual([404, "invalid_token_or_uid"]);
    }
  });
});

describe("impersonation paths", () => {
  it("sudo and desudo", async () => {
    const player = await createUser(server.world);
    const self = await server.api("POST", "/auth/sudo/", { token: staff.token, body: { id: staff.id } });
    expect([self.status, self.body.m]).toEqual([400, "cannot_impersonate_self"]);
    expect((await server.api("POST", "/auth/sudo/", { token: player.token, body: { id: staff.id } })).status).toBe(403);
    const sudo = await server.api("POST", "/auth/sudo/", { token: staff.token, body: { id: player.id } });
    expect(sudo.status).toBe(200);
    expect((await server.api("GET", "/member/self/", { token: sudo.body.d.token })).body.d.id).toBe(player.id);
    const back = await server.api("GET", "/auth/desudo/", { token: sudo.body.d.token });
    expect(back.status).toBe(200);
    expect((await server.api("GET", "/member/self/", { token: back.body.d.token })).body.d.id).toBe(staff.id);
    expect((await server.api("GET", "/auth/desudo/", { token: staff.token })).status).toBe(403);
  });
});

describe("invites", () => {
  it("generate_invites caps amount and GET /auth/invites/ pages with fully_used", async () => {
    const big = await server.api("POST", "/auth/generate_invites/", { token: staff.token, body: { amount: 10_001 } });
    expect([big.status, big.body.m]).toEqual([400, "max_value"]);
    const gen = await server.api("POST", "/auth/generate_invites/", { token: staff.token, body: { amount: 3, max_uses: 2 } });
    const list = await server.api("GET", "/auth/invites/?fully_used=false&limit=2", { token: staff.token });
    expect(list.body.d).toMatchObject({ count: expect.any(Number), next: expect.stringContaining("offset=2"), previous: null });
    expect(list.body.d.results[0]).toEqual({ id: expect.any(Number), code: expect.any(String), uses: 0, max_uses: 2, auto_team: null });
    expect(gen.body.d.invite_codes).toContain(list.body.d.results[0].code);
    const player = await createUser(server.world);
    expect((await server.api("GET", "/auth/invites/", { token: player.token })).status).toBe(403);
  });
});

describe("/member/self/", () => {
  it("GET, PATCH with the limits, DELETE with the password", async () => {
    const user = await createUser(server.world);
    const get = await server.api("GET", "/member/self/", { token: user.token });
    expect(get.body.d).toMatchObject({ id: user.id, username: user.username, email: user.email, is_staff: false, has_2fa: false, team: null, solves: [], incorrect_solves: 0 });
    expect(Object.keys(get.body.d)).toEqual(expect.arrayContaining(["state_actor", "bio", "discord", "discordid", "twitter", "reddit", "team_name", "points", "leaderboard_points", "date_joined"]));
    const patched = await server.api("PATCH", "/member/self/", { token: user.token, body: { bio: "hi", twitter: "tw" } });
    expect(patched.body.d).toMatchObject({ bio: "hi", twitter: "tw" });
    const long = await server.api("PATCH", "/member/self/", { token: user.token, body: { bio: "b".repeat(401) } });
    expect([long.status, long.body.m, Object.keys(long.body.d)]).toEqual([400, "max_length", ["bio"]]);
    // Older clients send the whole profile back: read-only keys are ignored, not refused.
    const whole = await server.api("PATCH", "/member/self/", { token: user.token, body: { ...get.body.d, id: 1, email: "x@example.test", is_staff: true, bio: "whole" } });
    expect(whole).toMatchObject({ status: 200, body: { d: { id: user.id, email: user.email, is_staff: false, bio: "whole" } } });
    const taken = await server.api("PATCH", "/member/self/", { token: user.token, body: { username: staff.username.toUpperCase() } });
    expect([taken.status, taken.body]).toEqual([400, { s: false, m: "unique", d: { username: ["That username is already taken."] } }]);
    expect((await server.api("GET", "/member/self/")).status).toBe(401);
    const wrong = await server.api("DELETE", "/member/self/", { token: user.token, body: { password: "x" } });
    expect([wrong.status, wrong.body.m]).toEqual([401, "invalid_password"]);
    expect((await server.api("DELETE", "/member/self/", { token: user.token, body: { password: TEST_PASSWORD } })).status).toBe(200);
    expect((await server.api("GET", "/member/self/", { token: user.token })).status).toBe(401);
  });
});

describe("throttling", () => {
  it("answers 429 throttled past the rate", async () => {
    const limited = await createTestServer({ THROTTLE: "on", THROTTLE_RATES: "login=2/hour" });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.api("POST", "/auth/login/", { body: { username: "x", password: "y" } })));
      expect(statuses.map((s) => s.status)).toEqual([401, 401, 429]);
      expect(statuses[2]!.body).toEqual({ s: false, m: "throttled", d: "" });
    } finally {
      await limited.close();
    }
  });
});

describe("the hashing pool's bound on waiting", () => {
  it("answers 429 throttled with Retry-After when a login would wait past HASH_MAX_WAIT_MS, changes nothing, and takes logins again once the queue drains", async () => {
    const user = await createUser(server.world);
    const db = server.world.services.db;
    const hasher = heldHasher();
    // One hash at a time, and no wait at all allowed once a hash's duration is known.
    configurePasswordHashing({ concurrency: 1, maxWaitMs: 0, hasher });
    const logIn = () => server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } });
    const hashStarted = () => vi.waitFor(() => expect(hasher.running()).toBe(1), { timeout: 30_000 });
    try {
      // A first login measures the average hash (the pool was free, so it did not wait).
      const measuring = logIn();
      await hashStarted();
      hasher.finishAll();
      expect((await measuring).status).toBe(200);

      const holding = logIn();
      await hashStarted();
      const tokensBefore = await db.authToken.count({ where: { userId: user.id } });
      await db.user.update({ where: { id: user.id }, data: { lastIp: "192.0.2.1" } });
      const refused = await logIn();
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ s: false, m: "throttled", d: "" });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(hasher.running()).toBe(1);
      expect(await db.authToken.count({ where: { userId: user.id } })).toBe(tokensBefore);
      expect(await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { lastIp: true } })).toEqual({ lastIp: "192.0.2.1" });

      // tRPC says the same, with the same header.
      const trpc = await server.app.inject({ method: "POST", url: "/trpc/auth.login", headers: { "content-type": "application/json" }, payload: { json: { username: user.username, password: TEST_PASSWORD } } });
      expect(trpc.statusCode).toBe(429);
      expect(trpc.headers["retry-after"]).toBe(refused.headers["retry-after"]);
      expect(trpc.json()).toMatchObject({ error: { json: { data: { appCode: "throttled" }, message: expect.stringMatching(/^Too many sign-ins at once\. Try again in \d+ seconds?\.$/) } } });

      hasher.finishAll();
      expect((await holding).status).toBe(200);
      // The queue has drained: the next login is taken.
      const again = logIn();
      await hashStarted();
      hasher.finishAll();
      expect((await again).status).toBe(200);
    } finally {
      hasher.finishAll();
      configurePasswordHashing(DEFAULT_HASHING);
    }
  });
});
