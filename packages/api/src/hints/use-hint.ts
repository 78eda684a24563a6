import { isUniqueViolation } from "@flagship/db";
import { AppError, ERRORS, isUnlocked, parseInput, ZUseHintInput } from "@flagship/shared";
import { requireChallengeAccess } from "../challenges/access.ts";
import { findHint } from "../challenges/catalog.ts";
import { invalidatePlayerState, loadPlayerState } from "../challenges/team-state.ts";
import type { Context } from "../context.ts";
import { EVENT_CODES } from "../events/publisher.ts";
import { retryTransaction } from "../scoring/locking.ts";
import { LOCKING_TX } from "../teams/lock.ts";

export interface UsedHint {
  id: number;
  name: string;
  penalty: number;
  challenge: number;
  text: string;
  used: true;
}

/**
 * POST /hints/use/: reveals a hint to the caller's team. The penalty is charged when the team
 * solves the challenge: a use committed before the solve always is (the lock order in locking.ts).
 * One use per (team, hint): the unique index turns a concurrent second use into hint_already_used.
 */
export async function useHint(ctx: Context, input: unknown): Promise<UsedHint> {
  const access = await requireChallengeAccess(ctx);
  const { actor } = access.ctx;
  if (actor.teamId === null) throw new AppError("permission_denied", { message: ERRORS.team_required.message });
  const teamId = actor.teamId;
  await ctx.throttle.check(ctx, "use_hint");
  const { id } = parseInput(ZUseHintInput, input);
  const { catalog, hint } = await findHint(ctx, id);
  const challenge = hint ? catalog.challenges.get(hint.challengeId) : undefined;
  if (!hint || !challenge || (challenge.withheld && !access.staff)) throw new AppError("not_found");
  const state = await loadPlayerState(ctx.db, actor.id, teamId);
  // The contract's order: a locked challenge first, then a hint already used.
  if (!state.solved.has(challenge.id) && !isUnlocked(challenge.unlockRequirements, state.solved)) throw new AppError("challenge_not_unlocked");
  if (state.hintsUsed.has(hint.id)) throw new AppError("hint_already_used");
  // Hints that require others open once the team has used those; nothing is charged before.
  const missing = hint.requirements.filter((required) => !state.hintsUsed.has(required));
  if (missing.length > 0) {
    const names = missing.map((required) => catalog.hints.get(required)?.name ?? `#${required}`);
    throw new AppError("hint_not_unlocked", { message: `Use ${names.map((n) => `"${n}"`).join(" and ")} first.`, details: { requirements: missing } });
  }
  try {
    // The challenge's row lock orders this use against the team's solve of it (locking.ts): a use
    // that commits before the solve is charged to it, one that waits commits after it.
    await retryTransaction(() =>
      ctx.db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM challenges WHERE id = ${challenge.id} FOR SHARE`;
        await tx.hintUse.create({ data: { hintId: hint.id, teamId, userId: actor.id, challengeId: challenge.id }, select: { id: true } });
      }, LOCKING_TX),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("hint_already_used");
    throw error;
  }
  await invalidatePlayerState(ctx, { teamId });
  const team = await ctx.db.team.findUnique({ where: { id: teamId }, select: { name: true } });
  await ctx.events.publish({
    kind: "socket",
    audience: { teamId },
    payload: {
      event_code: EVENT_CODES.hintUsed,
      user: actor.id,
      username: actor.username,
      team: teamId,
      team_name: team?.name ?? "",
      hint_name: hint.name,
      hint_penalty: hint.penalty,
      hint_text: hint.text,
      // Upstream's `challenge` is the challenge's name (RACTF's client shows it in the popup).
      challenge: challenge.name,
      challenge_id: challenge.id,
      challenge_name: challenge.name,
    },
  });
  return { id: hint.id, name: hint.name, penalty: hint.penalty, challenge: challenge.id, text: hint.text, used: true };
}
