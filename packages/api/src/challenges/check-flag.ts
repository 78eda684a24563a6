import { AppError, ERRORS, parseInput, ZSubmitFlagInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { requireAuth } from "../guards.ts";
import { findChallenge } from "./catalog.ts";
import { flagMatches } from "./flag-match.ts";
import { dynamicFlagMatches } from "./flag-sharing.ts";

/**
 * POST /challenges/check_flag/: lets a team that already solved a challenge test another flag
 * against it, recording nothing.
 */
export async function checkFlag(ctx: Context, input: unknown): Promise<{ m: "correct_flag" | "incorrect_flag"; d: { correct: boolean } }> {
  const { actor } = requireAuth(ctx);
  if (actor.teamId === null) throw new AppError("permission_denied", { message: ERRORS.team_required.message });
  // The same allowance as submit_flag, taken at the same point: each check can run a regex flag
  // for up to its time bound, so unthrottled checks would let one team stall the server.
  await ctx.throttle.check(ctx, "flag_submit");
  const { challenge: challengeId, flag } = parseInput(ZSubmitFlagInput, input);
  const solved = await ctx.db.solve.findUnique({
    where: { teamId_challengeId: { teamId: actor.teamId, challengeId } },
    select: { id: true },
  });
  if (!solved) throw new AppError("havent_solved_challenge");
  const { challenge } = await findChallenge(ctx, challengeId);
  if (!challenge) throw new AppError("not_found");
  const config = await ctx.config.all();
  const correct =
    challenge.flagType === "dynamic"
      ? dynamicFlagMatches(challenge.flagMetadata, flag, actor.teamId, config.flag_prefix)
      : flagMatches(challenge.flagType, challenge.flagMetadata, flag, config.flag_prefix);
  return { m: correct ? "correct_flag" : "incorrect_flag", d: { correct } };
}
