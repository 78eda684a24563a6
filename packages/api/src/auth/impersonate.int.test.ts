import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../context.ts";
import { resolveActor, resolveToken } from "./resolve-actor.ts";
import { resolveActorCached } from "./actor-cache.ts";
import { callerFor, createTestWorld, createUser, TEST_PASSWORD, type TestUser, type TestWorld } from "../testing/index.ts";
import { createEmailToken } from "./email-tokens.ts";
import { issueToken } from "./tokens.ts";

let world: TestWorld;
let staff: TestUser;
let player: TestUser;
beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  player = await createUser(world);
});
afterAll(() => world.close());

describe("impersonation", () => {
  it("gives staff a token acting as the user, audited, and desudo restores the staff session", async () => {
    const { token } = await callerFor(world, staff).auth.sudo({ id: player.id });
    const actor = await resolveActor(world.services, token);
    expect(actor).toMatchObject({ id: player.id, impersonatorId: staff.id, isStaff: false });
    const me = await callerFor(world, { actor: actor! }).auth.me();
    expect(me).toMatchObject({ id: player.id, impersonating: true, impersonator: { id: staff.id, username: staff.username } });

    const seen = world.events.length;
    const back = await callerFor(world, { actor: actor! }).auth.desudo();
    // The impersonation token was the player's: their websockets are re-checked.
    expect(world.events.slice(seen)).toContainEqual({ kind: "internal", name: "sessions_revoked", data: { userId: player.id } });
    const restored = await resolveActor(world.services, back.token);
    expect(restored).toMatchObject({ id: staff.id, impersonatorId: null });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });

    const audit = await world.services.db.auditLog.findMany({ where: { action: { in: ["sudo", "desudo"] } }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.action, a.userId, (a.extra as { target_id: number }).target_id])).toEqual([
      ["sudo", staff.id, player.id],
      ["desudo", staff.id, player.id],
    ]);
  });

  it("refuses impersonating oneself, players, nesting, and desudo outside impersonation", async () => {
    await expect(callerFor(world, staff).auth.sudo({ id: staff.id })).rejects.toMatchObject({ cause: { code: "cannot_impersonate_self", message: "You cannot impersonate yourself." } });
    await expect(callerFor(world, player).auth.sudo({ id: staff.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, staff).auth.sudo({ id: 999_999 })).rejects.toMatchObject({ cause: { code: "not_found" } });
    await expect(callerFor(world, staff).auth.desudo()).rejects.toMatchObject({ cause: { code: "not_impersonating" } });
    const otherStaff = await createUser(world, { isStaff: true });
    const { token } = await callerFor(world, staff).auth.sudo({ id: otherStaff.id });
    const actor = (await resolveActor(world.services, token))!;
    await expect(callerFor(world, { actor }).auth.sudo({ id: player.id })).rejects.toMatchObject({ cause: { code: "permission_denied" } });
  });

  it("ends when the impersonated user changes their password", async () => {
    const user = await createUser(world);
    const { token } = await callerFor(world, staff).auth.sudo({ id: user.id });
    expect(await resolveActor(world.services, token)).toMatchObject({ id: user.id, impersonatorId: staff.id });
    await callerFor(world, user).auth.changePassword({ old_password: TEST_PASSWORD, password: "Brand-New-Quokka-Marble-93" });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
    // The user's own session making the change stays.
    expect(await resolveActor(world.services, user.token)).toMatchObject({ id: user.id, impersonatorId: null });
  });

  it("ends when the impersonated user's password is reset", async () => {
    const user = await createUser(world);
    const { token } = await callerFor(world, staff).auth.sudo({ id: user.id });
    const reset = await createEmailToken(world.services.db, user.id, "password_reset", world.services.now());
    await callerFor(world, null).auth.resetPassword({ uid: user.id, token: reset, password: "Brand-New-Quokka-Marble-94" });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
    await expect(resolveActor(world.services, user.token)).rejects.toMatchObject({ code: "authentication_failed" });
    // The staff member's own session is untouched.
    expect(await resolveActor(world.services, staff.token)).toMatchObject({ id: staff.id });
  });

  it("logging out of an impersonation session leaves the user's own sessions alone", async () => {
    const user = await createUser(world);
    const { token } = await callerFor(world, staff).auth.sudo({ id: user.id });
    const actor = (await resolveActor(world.services, token))!;
    await callerFor(world, { actor }).auth.logout();
    expect(await resolveActor(world.services, user.token)).toMatchObject({ id: user.id });
  });
});

/** A login session of its own for `user`, as a fresh sign-in would make. */
async function signIn(user: TestUser): Promise<{ token: string; actor: Actor }> {
  const token = await issueToken(world.services.db, user.id);
  return { token, actor: (await resolveActor(world.services, token))! };
}

const revokedFor = (userId: number) => ({ kind: "internal", name: "sessions_revoked", data: { userId } });

describe("an impersonation lives no longer than what started it", () => {
  it("cannot be started with a personal access token, over tRPC as over REST", async () => {
    const lead = await createUser(world, { isStaff: true });
    const { token: personal } = await callerFor(world, lead).auth.createPersonalToken({ name: "script", expires_in_days: 365 });
    const actor = (await resolveActor(world.services, personal))!;
    const tokens = await world.services.db.authToken.count();
    const audits = await world.services.db.auditLog.count({ where: { action: "sudo" } });
    await expect(callerFor(world, { actor }).auth.sudo({ id: player.id })).rejects.toMatchObject({ code: "FORBIDDEN", cause: { code: "permission_denied" } });
    expect(await world.services.db.authToken.count()).toBe(tokens);
    expect(await world.services.db.auditLog.count({ where: { action: "sudo" } })).toBe(audits);
  });

  it("ends when the staff member logs out, and so do its websockets", async () => {
    const lead = await createUser(world, { isStaff: true });
    const session = await signIn(lead);
    const { token } = await callerFor(world, session).auth.sudo({ id: player.id });
    expect(await resolveActor(world.services, token)).toMatchObject({ id: player.id, impersonatorId: lead.id });
    const seen = world.events.length;
    await callerFor(world, session).auth.logout();
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
    expect(world.events.slice(seen)).toContainEqual(revokedFor(player.id));
    // The player's own session is theirs, not the staff member's.
    expect(await resolveActor(world.services, player.token)).toMatchObject({ id: player.id });
  });

  it("ends when the staff member changes their password on another device", async () => {
    const lead = await createUser(world, { isStaff: true });
    const laptop = await signIn(lead);
    const { token } = await callerFor(world, laptop).auth.sudo({ id: player.id });
    const seen = world.events.length;
    await callerFor(world, lead).auth.changePassword({ old_password: TEST_PASSWORD, password: "Brand-New-Quokka-Marble-95" });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
    expect(world.events.slice(seen)).toContainEqual(revokedFor(player.id));
  });

  it("expires with the session that started it", async () => {
    const lead = await createUser(world, { isStaff: true });
    const session = await signIn(lead);
    const { token } = await callerFor(world, session).auth.sudo({ id: player.id });
    const ends = new Date(Date.now() + 60_000);
    await world.services.db.authToken.update({ where: { id: session.actor.tokenId }, data: { expiresAt: ends } });
    // A cache keeps the actor no longer than that.
    expect((await resolveToken(world.services.db, token)).expiresAt).toBe(ends.getTime());
    await world.services.db.authToken.update({ where: { id: session.actor.tokenId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
  });

  it("ends when its staff member is demoted or deactivated, and giving the rights back revives none", async () => {
    const admin = await createUser(world, { isStaff: true });
    for (const patch of [{ is_staff: false }, { is_active: false }]) {
      const lead = await createUser(world, { isStaff: true });
      const { token } = await callerFor(world, lead).auth.sudo({ id: player.id });
      const { token: personal } = await callerFor(world, lead).auth.createPersonalToken({ name: "script", expires_in_days: 30 });
      const seen = world.events.length;
      await callerFor(world, admin).users.staffUpdate({ id: lead.id, patch });
      expect(world.events.slice(seen)).toContainEqual(revokedFor(player.id));
      await callerFor(world, admin).users.staffUpdate({ id: lead.id, patch: { is_staff: true, is_active: true } });
      await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
      await expect(resolveActor(world.services, personal)).rejects.toMatchObject({ code: "authentication_failed" });
    }
  });

  it("stops working when its staff member loses staff rights outside the application", async () => {
    const lead = await createUser(world, { isStaff: true });
    const { token } = await callerFor(world, lead).auth.sudo({ id: player.id });
    await world.services.db.user.update({ where: { id: lead.id }, data: { isStaff: false } });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
    await world.services.db.user.update({ where: { id: lead.id }, data: { isStaff: true, isActive: false } });
    await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
  });

  it("stops working while two-factor is enforced and its staff member has none, including one already running", async () => {
    const lead = await createUser(world, { isStaff: true });
    const { token } = await callerFor(world, lead).auth.sudo({ id: player.id });
    // Cached first, as a request before the setting changed would have left it.
    expect(await resolveActorCached(world.services, token)).toMatchObject({ id: player.id, impersonatorId: lead.id });
    await world.services.db.config.upsert({ where: { key: "enable_force_admin_2fa" }, update: { value: true }, create: { key: "enable_force_admin_2fa", value: true } });
    world.services.config.invalidate();
    try {
      await expect(resolveActor(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
      await expect(resolveActorCached(world.services, token)).rejects.toMatchObject({ code: "authentication_failed" });
      // The player's own session is untouched, and a staff member with two-factor keeps theirs.
      expect(await resolveActorCached(world.services, player.token)).toMatchObject({ id: player.id });
      const enrolled = await createUser(world, { isStaff: true });
      await world.services.db.user.update({ where: { id: enrolled.id }, data: { totpVerified: true } });
      await world.services.db.config.update({ where: { key: "enable_force_admin_2fa" }, data: { value: false } });
      world.services.config.invalidate();
      const { token: kept } = await callerFor(world, enrolled).auth.sudo({ id: player.id });
      await world.services.db.config.update({ where: { key: "enable_force_admin_2fa" }, data: { value: true } });
      world.services.config.invalidate();
      expect(await resolveActorCached(world.services, kept)).toMatchObject({ id: player.id, impersonatorId: enrolled.id });
    } finally {
      await world.services.db.config.update({ where: { key: "enable_force_admin_2fa" }, data: { value: false } });
      world.services.config.invalidate();
    }
    // Turned off again, the impersonation works again: it was never deleted.
    expect(await resolveActor(world.services, token)).toMatchObject({ id: player.id, impersonatorId: lead.id });
  });

  it("hands back one session per impersonation, ending no later than the one that started it", async () => {
    const lead = await createUser(world, { isStaff: true });
    const session = await signIn(lead);
    const ends = new Date(Date.now() + 3_600_000);
    await world.services.db.authToken.update({ where: { id: session.actor.tokenId }, data: { expiresAt: ends } });
    const { token } = await callerFor(world, session).auth.sudo({ id: player.id });
    const actor = (await resolveActor(world.services, token))!;
    const [first, second] = await Promise.allSettled([callerFor(world, { actor }).auth.desudo(), callerFor(world, { actor }).auth.desudo()]);
    const won = [first, second].filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    const back = (won[0] as PromiseFulfilledResult<{ token: string }>).value.token;
    expect(await resolveToken(world.services.db, back)).toMatchObject({ actor: { id: lead.id, impersonatorId: null }, expiresAt: ends.getTime() });
    expect(await world.services.db.auditLog.count({ where: { action: "desudo", userId: lead.id } })).toBe(1);
  });
});
