import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "../context.ts";
import { createCaller } from "../root.ts";
import { callerFor, createTestWorld, createUser, TEST_PASSWORD, type TestUser, type TestWorld } from "../testing/index.ts";
import { ACCOUNT_MAX_BLOCK_SECONDS } from "./sign-in-failures.ts";

/**
 * Guesses spread over many addresses: the per-address rates let one account take any number of
 * wrong passwords or 2FA codes from enough addresses. Wrong guesses are limited per account too,
 * with a wait capped at a few minutes, and staff (only) see each account's recorded failures.
 */
let world: TestWorld;
let staff: TestUser;
beforeAll(async () => {
  // An hour's window: the first block would last an hour but for the cap.
  world = await createTestWorld({ throttle: { enabled: true, rates: "login_account=3/hour,2fa_account=3/hour" } });
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

let address = 0;
/** An anonymous caller from an address no other call used, so only per-account limits can apply. */
const fromNewAddress = () => {
  address += 1;
  const ip = `198.51.${Math.floor(address / 250)}.${address % 250}`;
  return { ip, caller: createCaller(createInnerContext(world.services, null, ip)) };
};
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => "ok",
    (error: { cause?: { code: string; retryAfter?: number } }) => `${error.cause?.code}${error.cause?.retryAfter ? ` ${error.cause.retryAfter}` : ""}`,
  );

describe("wrong passwords for one account from many addresses", () => {
  it("are limited per account: the rate's guesses, then even the right password waits (at most the cap), while another account is not limited", async () => {
    const target = await createUser(world);
    const bystander = await createUser(world);
    const tries: string[] = [];
    for (let i = 0; i < 4; i++) tries.push(await outcome(fromNewAddress().caller.auth.login({ username: target.username, password: `wrong ${i}` })));
    expect(tries).toEqual(["incorrect_username_or_password", "incorrect_username_or_password", "incorrect_username_or_password", `throttled ${ACCOUNT_MAX_BLOCK_SECONDS}`]);
    expect(ACCOUNT_MAX_BLOCK_SECONDS).toBeLessThanOrEqual(300);
    expect(await outcome(fromNewAddress().caller.auth.login({ username: target.username, password: TEST_PASSWORD }))).toMatch(/^throttled \d+$/);
    // By email too: the account is blocked, not the name it was called by.
    expect(await outcome(fromNewAddress().caller.auth.login({ username: target.email, password: TEST_PASSWORD }))).toMatch(/^throttled/);
    expect(await outcome(fromNewAddress().caller.auth.login({ username: bystander.username, password: "wrong" }))).toBe("incorrect_username_or_password");
    expect(await outcome(fromNewAddress().caller.auth.login({ username: bystander.username, password: TEST_PASSWORD }))).toBe("ok");

    const audit = await world.services.db.auditLog.findMany({ where: { action: "sign_in_throttled" }, select: { userId: true, extra: true } });
    expect(audit.filter((entry) => (entry.extra as { user: number }).user === target.id)).toEqual([
      { userId: null, extra: { user: target.id, username: target.username, secret: "password", failures: 3, wait_seconds: ACCOUNT_MAX_BLOCK_SECONDS, ip: expect.any(String) } },
    ]);
  });

  it("are limited for names without an account alike, so a block does not tell which names exist", async () => {
    const tries: string[] = [];
    for (let i = 0; i < 4; i++) tries.push(await outcome(fromNewAddress().caller.auth.login({ username: "Nobody-By-This-Name", password: `wrong ${i}` })));
    expect(tries).toEqual(["incorrect_username_or_password", "incorrect_username_or_password", "incorrect_username_or_password", `throttled ${ACCOUNT_MAX_BLOCK_SECONDS}`]);
    expect(await outcome(fromNewAddress().caller.auth.login({ username: "nobody-by-this-name", password: "wrong" }))).toMatch(/^throttled/);
  });

  it("do not count right passwords", async () => {
    const user = await createUser(world);
    for (let i = 0; i < 5; i++) expect(await outcome(fromNewAddress().caller.auth.login({ username: user.username, password: TEST_PASSWORD }))).toBe("ok");
    for (let i = 0; i < 3; i++) expect(await outcome(fromNewAddress().caller.auth.login({ username: user.username, password: "wrong" }))).toBe("incorrect_username_or_password");
  });
});

describe("wrong 2FA and backup codes for one account", () => {
  async function withTwoFactor() {
    const user = await createUser(world);
    const own = callerFor(world, user);
    const { totp_secret: secret } = await own.auth.add2fa();
    const code = (offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
    const { backup_codes } = (await own.auth.verify2fa({ otp: await code(-1) })) as { backup_codes: string[] };
    return { user, own, code, backupCodes: backup_codes };
  }

  it("are limited per account from any address, TOTP and backup codes together; then even a right code waits", async () => {
    const { user, own, code, backupCodes } = await withTwoFactor();
    const wrong = [await code(1000), "zzzzzzzz", await code(-1000), "yyyyyyyy"];
    const tries: string[] = [];
    for (const tfa of wrong) tries.push(await outcome(fromNewAddress().caller.auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa })));
    expect(tries).toEqual(["login_failed", "login_failed", "login_failed", `throttled ${ACCOUNT_MAX_BLOCK_SECONDS}`]);
    expect(await outcome(fromNewAddress().caller.auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: await code(1) }))).toMatch(/^throttled/);
    expect(await outcome(fromNewAddress().caller.auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: backupCodes[0]! }))).toMatch(/^throttled/);
    // The same account's codes are guarded when switching 2FA off too.
    expect(await outcome(own.auth.remove2fa({ otp: await code() }))).toMatch(/^throttled/);
    // The right password alone still answers as before: the password is not what is blocked.
    expect(await outcome(fromNewAddress().caller.auth.login({ username: user.username, password: TEST_PASSWORD }))).toBe("2fa_required");
  });

  it("with a stolen session, switching 2FA off takes the rate's wrong codes, then waits", async () => {
    const { own } = await withTwoFactor();
    const tries: string[] = [];
    for (const otp of ["000001", "zzzzzzzz", "000002", "000003"]) tries.push(await outcome(own.auth.remove2fa({ otp })));
    expect(tries).toEqual(["code_incorrect", "code_incorrect", "code_incorrect", `throttled ${ACCOUNT_MAX_BLOCK_SECONDS}`]);
  });
});

describe("the failures staff see (users.signInFailures)", () => {
  it("counts wrong passwords and codes per account with the latest time and address, for staff only", async () => {
    const user = await createUser(world);
    const clean = await createUser(world);
    const first = fromNewAddress();
    await outcome(first.caller.auth.login({ username: user.username, password: "wrong" }));
    const second = fromNewAddress();
    const before = Date.now();
    await outcome(second.caller.auth.login({ username: user.email, password: "wrong again" }));
    await outcome(fromNewAddress().caller.auth.login({ username: user.username, password: TEST_PASSWORD }));

    const failures = await callerFor(world, staff).users.signInFailures({ ids: [user.id, clean.id] });
    expect(failures).toEqual([{ user: user.id, passwords: 2, codes: 0, last_at: expect.any(String), last_ip: second.ip }]);
    expect(Date.parse(failures[0]!.last_at)).toBeGreaterThanOrEqual(before - 1000);

    await expect(callerFor(world, user).users.signInFailures({ ids: [user.id] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, null).users.signInFailures({ ids: [user.id] })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("counts wrong codes apart from wrong passwords", async () => {
    const user = await createUser(world);
    const own = callerFor(world, user);
    const { totp_secret: secret } = await own.auth.add2fa();
    await own.auth.verify2fa({ otp: await generate({ secret }) });
    const from = fromNewAddress();
    await outcome(from.caller.auth.login2fa({ username: user.username, password: TEST_PASSWORD, tfa: "zzzzzzzz" }));
    await outcome(from.caller.auth.login2fa({ username: user.username, password: "wrong", tfa: "zzzzzzzz" }));
    expect(await callerFor(world, staff).users.signInFailures({ ids: [user.id] })).toEqual([{ user: user.id, passwords: 1, codes: 1, last_at: expect.any(String), last_ip: from.ip }]);
  });
});
