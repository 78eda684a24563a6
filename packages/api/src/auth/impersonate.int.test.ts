import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveActor } from "./resolve-actor.ts";
import { callerFor, createTestWorld, createUser, TEST_PASSWORD, type TestUser, type TestWorld } from "../testing/index.ts";
import { createEmailToken } from "./email-tokens.ts";

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
    const actor = await resolveActor(world.services.db, token);
    expect(actor).toMatchObject({ id: player.id, impersonatorId: staff.id, isStaff: false });
    const me = await callerFor(world, { actor: actor! }).auth.me();
    expect(me).toMatchObject({ id: player.id, impersonating: true, impersonator: { id: staff.id, username: staff.username } });

    const seen = world.events.length;
    const back = await callerFor(world, { actor: actor! }).auth.desudo();
    // The impersonation token was the player's: their websockets are re-checked.
    expect(world.events.slice(seen)).toContainEqual({ kind: "internal", name: "sessions_revoked", data: { userId: player.id } });
    const restored = await resolveActor(world.services.db, back.token);
    expect(restored).toMatchObject({ id: staff.id, impersonatorId: null });
    await expect(resolveActor(world.services.db, token)).rejects.toMatchObject({ code: "authentication_failed" });

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
    const actor = (await resolveActor(world.services.db, token))!;
    await expect(callerFor(world, { actor }).auth.sudo({ id: player.id })).rejects.toMatchObject({ cause: { code: "permission_denied" } });
  });

  it("ends when the impersonated user changes their password", async () => {
    const user = await createUser(world);
    const { token } = await callerFor(world, staff).auth.sudo({ id: user.id });
    expect(await resolveActor(world.services.db, token)).toMatchObject({ id: user.id, impersonatorId: staff.id });
    await callerFor(world, user).auth.changePassword({ old_password: TEST_PASSWORD, password: "Brand-New-Quokka-Marble-93" });
    await expect(resolveActor(world.services.db, token)).rejects.toMatchObject({ code: "authentication_failed" });
    // The user's own session making the change stays.
    expect(await resolveActor(world.services.db, user.token)).toMatchObject({ id: user.id, impersonatorId: null });
  });

  it("ends when the impersonated user's password is reset", async () => {
    const user = await createUser(world);
    const { token } = await callerFor(world, staff).auth.sudo({ id: user.id });
    const reset = await createEmailToken(world.services.db, user.id, "password_reset", world.services.now());
    await callerFor(world, null).auth.resetPassword({ uid: user.id, token: reset, password: "Brand-New-Quokka-Marble-94" });
    await expect(resolveActor(world.services.db, token)).rejects.toMatchObject({ code: "authentication_failed" });
    await expect(resolveActor(world.services.db, user.token)).rejects.toMatchObject({ code: "authentication_failed" });
    // The staff member's own session is untouched.
    expect(await resolveActor(world.services.db, staff.token)).toMatchObject({ id: staff.id });
  });

  it("logging out of an impersonation session leaves the user's own sessions alone", async () => {
    const user = await createUser(world);
    const { token } = await callerFor(world, staff).auth.sudo({ id: user.id });
    const actor = (await resolveActor(world.services.db, token))!;
    await callerFor(world, { actor }).auth.logout();
    expect(await resolveActor(world.services.db, user.token)).toMatchObject({ id: user.id });
  });
});
