import type { AuthedContext } from "../guards.ts";
import { deleteTokens, sessionsRevoked } from "./tokens.ts";

/**
 * POST /auth/logout/: deletes every session token of the user, signing out all their devices,
 * and with them the impersonations those sessions started. An impersonation session only drops
 * its own token: staff looking at an account must not sign its owner out.
 */
export async function logout(ctx: AuthedContext): Promise<void> {
  const ended =
    ctx.actor.impersonatorId !== null
      ? await deleteTokens(ctx.db, { id: ctx.actor.tokenId })
      : // Personal access tokens (named) stay: scripts using them are revoked one by one in settings.
        await deleteTokens(ctx.db, { userId: ctx.actor.id, impersonatorId: null, name: null });
  // Websockets opened with a deleted token must close too, the impersonated users' included.
  await sessionsRevoked(ctx.events, [ctx.actor.id, ...ended]);
}
