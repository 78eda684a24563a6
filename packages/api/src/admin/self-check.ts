import { checkChallenge, type SelfCheckEntry } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";

/** GET /admin/self_check/: every challenge's problems, for fixing before the event starts. */
export async function selfCheck(ctx: StaffContext): Promise<SelfCheckEntry[]> {
  const challenges = await ctx.db.challenge.findMany({
    select: { id: true, score: true, flagType: true, flagMetadata: true, challengeType: true },
    orderBy: { id: "asc" },
  });
  return challenges.flatMap(checkChallenge);
}
