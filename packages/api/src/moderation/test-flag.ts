import { AppError, parseInput, ZTestFlagInput } from "@flagship/shared";
import { findChallenge } from "../challenges/catalog.ts";
import { flagMatches } from "../challenges/flag-match.ts";
import { dynamicFlagMatches } from "../challenges/flag-sharing.ts";
import type { StaffContext } from "../guards.ts";

/**
 * Staff try a flag on a challenge with the checker teams face (prefix, flag type, per-team flags
 * for the team named), and nothing is recorded: no attempt, solve, counter, event or audit entry,
 * so the board and the logs show no trace of it. Only the answer is returned.
 */
export async function testFlag(ctx: StaffContext, input: unknown): Promise<{ correct: boolean }> {
  const { challenge: challengeId, flag, team } = parseInput(ZTestFlagInput, input);
  const { challenge } = await findChallenge(ctx, challengeId);
  if (!challenge) throw new AppError("not_found");
  const { flag_prefix: prefix } = await ctx.config.all();
  if (challenge.flagType === "dynamic") {
    // A per-team flag is right for one team only: without one named there is nothing to match.
    if (team === undefined) throw new AppError("invalid", { message: "Choose the team whose flag this is.", details: { team: ["Choose the team whose flag this is."] } });
    return { correct: dynamicFlagMatches(challenge.flagMetadata, flag, team, prefix) };
  }
  return { correct: flagMatches(challenge.flagType, challenge.flagMetadata, flag, prefix) };
}
