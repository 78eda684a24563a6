import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailCatcher, type MailCatcher } from "../testing/mail-catcher.ts";
import { callerFor, createTestWorld, createUser, TEST_PASSWORD, type TestWorld, uniqueName } from "../testing/index.ts";

const STRONG = "Tangerine-Quokka-Marble-91";
let world: TestWorld;
let catcher: MailCatcher;

beforeAll(async () => {
  catcher = await startMailCatcher();
  world = await createTestWorld({ smtpUrl: catcher.url, publicUrl: "http://ctf.example" });
  // The first account becomes staff; these tests are about players.
  await createUser(world, { isStaff: true });
});
afterAll(async () => {
  await world.close();
  await catcher.close();
});

const anon = () => callerFor(world, null);

/** The id and secret of the link in a received mail. */
function linkIn(text: string, path: string): { uid: number; token: string } {
  const match = new RegExp(`http://ctf\\.example/${path}\\?id=(\\d+)&secret=([0-9a-f]+)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return { uid: Number(match[1]), token: match[2]! };
}

describe("email verification (with a mail transport)", () => {
  it("mails a link on registration; the account cannot log in until it is used, once", async () => {
    const username = uniqueName("mail");
    const email = `${username}@example.test`;
    const registered = await anon().auth.register({ username, email, password: STRONG, password2: STRONG, accept: true });
    expect(registered).toEqual({ verificationRequired: true, token: null });
    await expect(anon().auth.login({ username, password: STRONG })).rejects.toMatchObject({ cause: { code: "email_verification_required" } });

    const mail = await catcher.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe("Verify your email for Flagship CTF");
    const link = linkIn(mail.text, "verify");
    const stored = await world.services.db.emailToken.findFirstOrThrow({ where: { userId: link.uid }, select: { tokenHash: true } });
    expect(stored.tokenHash).not.toBe(link.token);

    await expect(anon().auth.verifyEmail({ uid: link.uid, token: "f".repeat(64) })).rejects.toMatchObject({ cause: { code: "invalid_token_or_uid" } });
    const verified = await anon().auth.verifyEmail(link);
    expect(verified.token).toMatch(/^[0-9a-f]{64}$/);
    await expect(anon().auth.verifyEmail(link)).rejects.toMatchObject({ cause: { code: "email_already_verified" } });
    await expect(anon().auth.login({ username, password: STRONG })).resolves.toHaveProperty("token");
  });

  it("resends a new link that replaces the old one", async () => {
    const username = uniqueName("resend");
    const email = `${username}@example.test`;
    await anon().auth.register({ username, email, password: STRONG });
    const first = linkIn((await catcher.waitFor((m) => m.to.includes(email))).text, "verify");
    await anon().auth.resendEmail({ email });
    const second = linkIn((await catcher.waitFor((m) => m.to.includes(email) && !m.text.includes(first.token))).text, "verify");
    await expect(anon().auth.verifyEmail(first)).rejects.toMatchObject({ cause: { code: "invalid_token_or_uid" } });
    await anon().auth.verifyEmail(second);
    await expect(anon().auth.resendEmail({ email })).rejects.toMatchObject({ cause: { code: "email_already_verified" } });
    await expect(anon().auth.resendEmail({ email: "nobody@example.test" })).rejects.toMatchObject({ cause: { code: "not_found" } });
  });

  it("refuses an expired link", async () => {
    const username = uniqueName("expired");
    const email = `${username}@example.test`;
    await anon().auth.register({ username, email, password: STRONG });
    const link = linkIn((await catcher.waitFor((m) => m.to.includes(email))).text, "verify");
    world.setNow(Math.floor(Date.now() / 1000) + 3 * 24 * 3600);
    try {
      await expect(anon().auth.verifyEmail(link)).rejects.toMatchObject({ cause: { code: "invalid_token_or_uid" } });
    } finally {
      world.setNow(null);
    }
  });
});

describe("password reset", () => {
  it("mails a single-use link; a weak password does not burn it; the reset ends other sessions and logs in", async () => {
    const user = await createUser(world);
    await expect(anon().auth.requestPasswordReset({ email: "nobody@example.test" })).rejects.toMatchObject({ cause: { code: "not_found" } });
    await anon().auth.requestPasswordReset({ email: user.email });
    const mail = await catcher.waitFor((m) => m.to.includes(user.email) && m.subject.includes("Reset"));
    const link = linkIn(mail.text, "password_reset");

    await expect(anon().auth.resetPassword({ ...link, password: "password" })).rejects.toMatchObject({ cause: { code: "weak_password" } });
    const seen = world.events.length;
    const { token } = await anon().auth.resetPassword({ ...link, password: STRONG });
    expect(world.events.slice(seen)).toContainEqual({ kind: "internal", name: "sessions_revoked", data: { userId: user.id } });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(await world.services.db.authToken.count({ where: { userId: user.id } })).toBe(1);
    await expect(anon().auth.resetPassword({ ...link, password: "Another-Quokka-Marble-92" })).rejects.toMatchObject({ cause: { code: "invalid_token_or_uid" } });
    await expect(anon().auth.login({ username: user.username, password: TEST_PASSWORD })).rejects.toMatchObject({ cause: { code: "incorrect_username_or_password" } });
    await expect(anon().auth.login({ username: user.username, password: STRONG })).resolves.toHaveProperty("token");
  });

  it("does not hand a session past 2FA", async () => {
    const user = await createUser(world);
    await world.services.db.user.update({ where: { id: user.id }, data: { totpSecret: "JBSWY3DPEHPK3PXP", totpVerified: true } });
    await anon().auth.requestPasswordReset({ email: user.email });
    const link = linkIn((await catcher.waitFor((m) => m.to.includes(user.email) && m.subject.includes("Reset"))).text, "password_reset");
    expect(await anon().auth.resetPassword({ ...link, password: STRONG })).toEqual({ token: null });
  });
});

describe("links naming no account", () => {
  it("answer invalid_token_or_uid for a uid that is not a number, out of range, or unknown", async () => {
    const token = "f".repeat(64);
    for (const uid of ["abc", "1e3", "-1", "0", "99999999999", 999_999, Number.NaN]) {
      await expect(anon().auth.verifyEmail({ uid, token })).rejects.toMatchObject({ cause: { code: "invalid_token_or_uid" } });
      await expect(anon().auth.resetPassword({ uid, token, password: STRONG })).rejects.toMatchObject({ cause: { code: "invalid_token_or_uid" } });
    }
    await expect(anon().auth.verifyEmail({ token } as never)).rejects.toMatchObject({ cause: { code: "required" } });
  });
});

describe("change password", () => {
  it("needs the current password and a strong new one; other sessions end", async () => {
    const user = await createUser(world);
    await anon().auth.login({ username: user.username, password: TEST_PASSWORD });
    const caller = callerFor(world, user);
    await expect(caller.auth.changePassword({ old_password: "wrong", password: STRONG })).rejects.toMatchObject({ cause: { code: "invalid_password" } });
    await expect(caller.auth.changePassword({ old_password: TEST_PASSWORD, password: "abc123" })).rejects.toMatchObject({ cause: { code: "weak_password" } });
    const seen = world.events.length;
    await caller.auth.changePassword({ old_password: TEST_PASSWORD, password: STRONG });
    expect(world.events.slice(seen)).toContainEqual({ kind: "internal", name: "sessions_revoked", data: { userId: user.id } });
    const tokens = await world.services.db.authToken.findMany({ where: { userId: user.id }, select: { id: true } });
    expect(tokens).toEqual([{ id: user.actor.tokenId }]);
  });
});
