import { publicProcedure, router } from "../trpc.ts";

export const authRouter = router({
  /** Who the token belongs to, or null when logged out. */
  me: publicProcedure.query(({ ctx }) =>
    ctx.actor
      ? {
          id: ctx.actor.id,
          username: ctx.actor.username,
          isStaff: ctx.actor.isStaff,
          teamId: ctx.actor.teamId,
          impersonating: ctx.actor.impersonatorId !== null,
        }
      : null,
  ),
});
