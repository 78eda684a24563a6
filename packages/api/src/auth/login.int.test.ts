import argon2 from "argon2";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, TEST_PASSWORD, type TestWorld } from "../testing/index.ts";

let world: TestWorld;
beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(() => world.close());

async function setConfig(key: string, value: unknown) {
  await world.services.db.config.upsert({ where: { key }, create: { key, value: value as object }, update: { value: value as object } });
  world.services.config.invalidate();
}
const anon = () => callerFor(world, null);
const loginAs = (username: string, password = TEST_PASSWORD) => anon().auth.login({ username, password });

describe("login", () => {
  it("accepts the username or the email, in any case, and stores only the token's hash", async () => {
    const user = await createUser(world);
    const { token } = await loginAs(user.username.toUpperCase());
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    await expect(loginAs(user.email)).resolves.toHaveProperty("token");
    const rows = await world.services.db.authToken.findMany({ where: { userId: user.id }, select: { keyHash: true } });
    expect(rows.map((r) => r.keyHash)).not.toContain(token);
  });

  it("answers incorrect_username_or_password with the reason in details, for wrong password and unknown user", async () => {
    const user = await createUser(world);
    await expect(loginAs(user.username, "wrong")).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password", details: { reason: "incorrect_username_or_password" } } });
    await expect(loginAs("nobody-here")).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
  });

  it("refuses players when login is off, or before the start with login before it off, but never staff", async () => {
    const player = await createUser(world);
    const staff = await createUser(world, { isStaff: true });
    await setConfig("enable_login", false);
    await expect(loginAs(player.username)).rejects.toMatchObject({ cause: { code: "login_not_open" } });
    await expect(loginAs(staff.username)).resolves.toHaveProperty("token");
    await setConfig("enable_login", true);
    await setConfig("start_time", Math.floor(Date.now() / 1000) + 3600);
    // Login before the start is on by default: players sign in to form teams and read the rules.
    await expect(loginAs(player.username)).resolves.toHaveProperty("token");
    await setConfig("enable_prelogin", false);
    await expect(loginAs(player.username)).rejects.toMatchObject({ cause: { code: "login_not_open" } });
    await expect(loginAs(staff.username)).resolves.toHaveProperty("token");
    await setConfig("start_time", Math.floor(Date.now() / 1000) - 1);
    await expect(loginAs(player.username)).resolves.toHaveProperty("token");
    await setConfig("start_time", null);
    await setConfig("enable_prelogin", true);
  });

  it("requires a verified email from players only", async () => {
    const player = await createUser(world);
    const staff = await createUser(world, { isStaff: true });
    await world.services.db.user.updateMany({ where: { id: { in: [player.id, staff.id] } }, data: { emailVerified: false } });
    await expect(loginAs(player.username)).rejects.toMatchObject({ cause: { code: "email_verification_required" } });
    await expect(loginAs(staff.username)).resolves.toHaveProperty("token");
  });

  it("refuses deactivated accounts like a wrong password", async () => {
    const user = await createUser(world);
    await world.services.db.user.update({ where: { id: user.id }, data: { isActive: false } });
    await expect(loginAs(user.username)).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
  });

  it("logout deletes every token of the user and tells the websockets", async () => {
    const user = await createUser(world);
    await loginAs(user.username);
    const seen = world.events.length;
    await callerFor(world, user).auth.logout();
    expect(await world.services.db.authToken.count({ where: { userId: user.id } })).toBe(0);
    expect(world.events.slice(seen)).toContainEqual({ kind: "internal", name: "sessions_revoked", data: { userId: user.id } });
  });

  it("upgrades a hash made with other argon2 parameters at the next successful login, and only then", async () => {
    const user = await createUser(world);
    const old = await argon2.hash(TEST_PASSWORD, { type: argon2.argon2id, memoryCost: 65536, timeCost: 3, parallelism: 4 });
    await world.services.db.user.update({ where: { id: user.id }, data: { passwordHash: old } });
    const stored = async () => (await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } })).passwordHash!;

    await expect(loginAs(user.username, "not the password")).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
    expect(await stored()).toBe(old);

    await loginAs(user.username);
    const upgraded = await stored();
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await argon2.verify(upgraded, TEST_PASSWORD)).toBe(true);
    // Already at the documented cost: a further login leaves it alone.
    await loginAs(user.username);
    expect(await stored()).toBe(upgraded);
  }, 30_000);

  it("is throttled per IP when rates are on", async () => {
    const throttled = await createTestWorld({ throttle: { enabled: true, rates: "login=2/hour" } });
    try {
      const user = await createUser(throttled);
      const caller = callerFor(throttled, null);
      const results = await Promise.allSettled([1, 2, 3].map(() => caller.auth.login({ username: user.username, password: TEST_PASSWORD })));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
      expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "TOO_MANY_REQUESTS", cause: { code: "throttled" } });
    } finally {
      await throttled.close();
    }
  });
});

describe("two-factor authentication", () => {
  async function enrol() {
    const user = await createUser(world);
    const caller = callerFor(world, user);
    const { totp_secret, uri, issuer } = await caller.auth.add2fa();
    expect(totp_secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(issuer).toBe("Flagship CTF");
    expect(uri).toContain("issuer=Flagship");
    return { user, caller, secret: totp_secret };
  }
  const code = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

  it("goes through add, verify with 10 backup codes, and then login needs a code", async () => {
    const { user, caller, secret } = await enrol();
    expect(await caller.auth.verify2fa({ otp: "000000" })).toEqual({ valid: false });
    const verified = await caller.auth.verify2fa({ otp: await code(secret) });
    if (!verified.valid) throw new Error("expected valid");
    expect(verified.backup_codes).toHaveLength(10);
    expect(verified.backup_codes.every((c) => c.length === 8)).toBe(true);
    await expect(caller.auth.add2fa()).rejects.toMatchObject({ cause: { code: "permission_denied" } });

    await expect(loginAs(user.username)).rejects.toMatchObject({ cause: { code: "2fa_required", details: { reason: "2fa_required" } } });
    await expect(anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: "123" })).rejects.toMatchObject({ cause: { code: "login_failed" } });
    await expect(anon().auth.login2fa({ username: user.username, password: "wrong", tfa: "123456" })).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
    // The step verify_2fa used cannot be replayed; the next step's code is fine (one step of drift).
    await expect(anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: await code(secret) })).rejects.toMatchObject({ cause: { code: "login_failed" } });
    await expect(anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: await code(secret, 1) })).resolves.toHaveProperty("token");
  });

  it("accepts each backup code once, even when sent twice at the same moment", async () => {
    const { user, caller, secret } = await enrol();
    const verified = await caller.auth.verify2fa({ otp: await code(secret) });
    if (!verified.valid) throw new Error("expected valid");
    const backup = verified.backup_codes[0]!;
    const results = await Promise.allSettled([1, 2].map(() => anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: backup })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("refuses a TOTP code replayed concurrently", async () => {
    const { user, caller, secret } = await enrol();
    await caller.auth.verify2fa({ otp: await code(secret, -1) });
    const next = await code(secret);
    const results = await Promise.allSettled([1, 2, 3].map(() => anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: next })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("regenerates backup codes (old ones stop working) and removes 2FA with a code", async () => {
    const { user, caller, secret } = await enrol();
    const verified = await caller.auth.verify2fa({ otp: await code(secret, -1) });
    if (!verified.valid) throw new Error("expected valid");
    const { backup_codes } = await caller.auth.regenerateBackupCodes();
    expect(backup_codes).toHaveLength(10);
    await expect(anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: verified.backup_codes[0]! })).rejects.toMatchObject({ cause: { code: "login_failed" } });
    await expect(caller.auth.remove2fa({ otp: "000000" })).rejects.toMatchObject({ cause: { code: "code_incorrect" } });
    await caller.auth.remove2fa({ otp: await code(secret) });
    const row = await world.services.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { totpSecret: true, totpVerified: true } });
    expect(row).toEqual({ totpSecret: null, totpVerified: false });
    await expect(caller.auth.remove2fa({ otp: "000000" })).rejects.toMatchObject({ cause: { code: "permission_denied" } });
    await expect(caller.auth.regenerateBackupCodes()).rejects.toMatchObject({ cause: { code: "permission_denied" } });
    await expect(anon().auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: "123456" })).rejects.toMatchObject({ cause: { code: "2fa_not_enabled" } });
    await expect(loginAs(user.username)).resolves.toHaveProperty("token");
  });

  it("withholds staff powers from staff without 2FA while enable_force_admin_2fa is on, until they enrol", async () => {
    const staff = await createUser(world, { isStaff: true });
    await setConfig("enable_force_admin_2fa", true);
    try {
      const me = await callerFor(world, staff).auth.me();
      expect(me).toMatchObject({ isStaff: true, staffPowers: false, mustEnrol2fa: true });
      await expect(callerFor(world, staff).auth.generateInvites({ amount: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
      const { totp_secret } = await callerFor(world, staff).auth.add2fa();
      await callerFor(world, staff).auth.verify2fa({ otp: await code(totp_secret) });
      const enrolled = { actor: { ...staff.actor, has2fa: true } };
      expect(await callerFor(world, enrolled).auth.me()).toMatchObject({ staffPowers: true, mustEnrol2fa: false });
      await expect(callerFor(world, enrolled).auth.generateInvites({ amount: 1 })).resolves.toHaveProperty("invite_codes");
    } finally {
      await setConfig("enable_force_admin_2fa", false);
    }
  });
});
