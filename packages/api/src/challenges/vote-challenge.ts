import { AppError, parseInput, ZVoteInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { requireAuth } from "../guards.ts";
import { invalidateCatalog } from "./catalog.ts";
import { invalidatePlayerState } from "./team-state.ts";
import type { Votes } from "./views.ts";

/** Rating and feedback are open to members of a team that solved the challenge. */
export async function requireTeamSolved(ctx: Context, challengeId: number): Promise<{ userId: number }> {
  const { actor } = requireAuth(ctx);
  const solved =
    actor.teamId !== null &&
    (await ctx.db.solve.findUnique({ where: { teamId_challengeId: { teamId: actor.teamId, challengeId } }, select: { id: true } })) !== null;
  if (!solved) throw new AppError("challenge_not_solved");
  return { userId: actor.id };
}

/**
 * POST /challenges/vote/: one vote per user and challenge, a new one replacing the old. The
 * challenge row is locked first, so concurrent votes recount one after another and the cached
 * totals stay exact.
 */
export async function voteChallenge(ctx: Context, input: unknown): Promise<Votes> {
  // Authentication before the body, so an anonymous caller gets 401 whatever it sent.
  requireAuth(ctx);
  const { challenge: challengeId, positive } = parseInput(ZVoteInput, input);
  const { userId } = await requireTeamSolved(ctx, challengeId);
  const votes = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM challenges WHERE id = ${challengeId} FOR NO KEY UPDATE`;
    await tx.$executeRaw`
      INSERT INTO votes (user_id, challenge_id, positive, created_at) VALUES (${userId}, ${challengeId}, ${positive}, now())
      ON CONFLICT (user_id, challenge_id) DO UPDATE SET positive = EXCLUDED.positive, created_at = now()`;
    const [row] = await tx.$queryRaw<{ positive: number; negative: number }[]>`
      UPDATE challenges SET
        votes_positive = (SELECT count(*) FROM votes WHERE challenge_id = ${challengeId} AND positive),
        votes_negative = (SELECT count(*) FROM votes WHERE challenge_id = ${challengeId} AND NOT positive)
      WHERE id = ${challengeId}
      RETURNING votes_positive AS positive, votes_negative AS negative`;
    return row!;
  });
  await invalidateCatalog(ctx);
  await invalidatePlayerState(ctx, { userId });
  return { positive: votes.positive, negative: votes.negative, self: positive };
}
