import type { AuthedContext } from "../guards.ts";

/**
 * POST /auth/logout/: deletes every session token of the user, signing out all their devices. An
 * impersonation session only drops its own token: staff looking at an account must not sign
 * its owner out.
 */
export async function logout(ctx: AuthedContext): Promise<void> {
  if (ctx.actor.impersonatorId !== null) {
    await ctx.db.authToken.deleteMany({ where: { id: ctx.actor.tokenId } });
  } else {
    // Personal access tokens (named) stay: scripts using them are revoked one by one in settings.
    await ctx.db.authToken.deleteMany({ where: { userId: ctx.actor.id, impersonatorId: null, name: null } });
  }
  // Websockets opened with a deleted token must close too; the websocket server re-checks them.
  await ctx.events.publish({ kind: "internal", name: "sessions_revoked", data: { userId: ctx.actor.id } });
}
