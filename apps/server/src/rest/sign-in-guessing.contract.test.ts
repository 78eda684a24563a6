import { TEST_PASSWORD, createUser } from "@flagship/api/testing";
import { generate } from "otplib";
import { afterAll, describe, expect, it } from "vitest";
import { createTestServer } from "../testing.ts";

/**
 * An attack run gave one account 8 wrong passwords from 8 addresses and then the right one, and 60
 * wrong 2FA codes without a 429: the login rates counted per address only. Wrong guesses are now
 * limited per account as well, answered as the per-address throttles answer (429 `throttled` with
 * Retry-After), with the wait capped at five minutes.
 */
const server = await createTestServer({ THROTTLE: "on", TRUST_PROXY: "1", THROTTLE_RATES: "login_account=3/hour,2fa_account=3/hour" });
afterAll(() => server.close());

let address = 0;
/** A request from an address no other request used (the server trusts one proxy hop). */
const fromNewAddress = () => ({ "x-forwarded-for": `203.0.${Math.floor(++address / 250)}.${address % 250}` });

describe("guessing one account's password from many addresses", () => {
  it("gets the rate's wrong guesses, then 429 throttled with Retry-After even for the right password; another account is not limited", async () => {
    const target = await createUser(server.world);
    const bystander = await createUser(server.world);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await server.api("POST", "/auth/login/", { body: { username: target.username, password: `guess ${i}` }, headers: fromNewAddress() })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);

    const right = await server.api("POST", "/auth/login/", { body: { username: target.username, password: TEST_PASSWORD }, headers: fromNewAddress() });
    expect({ status: right.status, s: right.body.s, m: right.body.m }).toEqual({ status: 429, s: false, m: "throttled" });
    const wait = Number(right.headers["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(300);
    expect(await server.world.services.db.authToken.count({ where: { userId: target.id } })).toBe(1);

    const other = await server.api("POST", "/auth/login/", { body: { username: bystander.username, password: TEST_PASSWORD }, headers: fromNewAddress() });
    expect(other.status).toBe(200);
    expect(other.body.d.token).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("guessing one account's 2FA and backup codes", () => {
  it("gets the rate's wrong codes, then 429 throttled with Retry-After even for the right code", async () => {
    const user = await createUser(server.world);
    const added = await server.api("POST", "/auth/add_2fa/", { token: user.token });
    const secret = added.body.d.totp_secret as string;
    const code = (offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
    const verified = await server.api("POST", "/auth/verify_2fa/", { token: user.token, body: { otp: await code(-1) } });
    expect(verified.body.d.valid).toBe(true);

    const answers: string[] = [];
    for (const tfa of [await code(500), "aaaabbbb", await code(-500), "ccccdddd", await code(700)]) {
      const res = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: TEST_PASSWORD, tfa }, headers: fromNewAddress() });
      answers.push(`${res.status} ${res.body.m}`);
    }
    expect(answers).toEqual(["401 login_failed", "401 login_failed", "401 login_failed", "429 throttled", "429 throttled"]);
    const right = await server.api("POST", "/auth/login_2fa/", { body: { username: user.username, password: TEST_PASSWORD, tfa: await code(1) }, headers: fromNewAddress() });
    expect(right.status).toBe(429);
    expect(Number(right.headers["retry-after"])).toBeLessThanOrEqual(300);
  });
});
