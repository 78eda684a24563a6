import { parseInput, ZFeedbackInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { requireAuth } from "../guards.ts";
import { requireTeamSolved } from "./vote-challenge.ts";

/** POST /challenges/feedback/: one piece of feedback per user and challenge; a new one replaces it. */
export async function giveFeedback(ctx: Context, input: unknown): Promise<{ challenge: number; feedback: string }> {
  // Authentication before the body, so an anonymous caller gets 401 whatever it sent.
  requireAuth(ctx);
  const { challenge: challengeId, feedback } = parseInput(ZFeedbackInput, input);
  const { userId } = await requireTeamSolved(ctx, challengeId);
  await ctx.db.feedback.upsert({
    where: { userId_challengeId: { userId, challengeId } },
    create: { userId, challengeId, feedback },
    update: { feedback, createdAt: new Date() },
    select: { id: true },
  });
  return { challenge: challengeId, feedback };
}
