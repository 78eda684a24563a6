import { z } from "zod";
import type { Context } from "../context.ts";
import { releasedChallengeWhere } from "../challenges/access.ts";
import type { Hidden } from "./leaderboard.ts";
import { boardView } from "./view.ts";

/** `players`: staff ask for what players see (the projector in a room, whoever is signed in). */
export const ZFirstBloodsInput = z.object({ limit: z.number().int().min(1).max(20).default(5), players: z.boolean().optional() });
export type FirstBloodsInput = z.infer<typeof ZFirstBloodsInput>;

export interface FirstBlood {
  challenge_id: number;
  challenge_name: string;
  /** The team that took it, or the player when teams are off. */
  solver_name: string;
  timestamp: string;
}

/**
 * The latest first bloods, newest first, for the projector board. What the board shows, they
 * show: nothing while the scoreboard is off, nothing after the freeze for players, and for
 * players neither hidden challenges nor teams and players kept off the board.
 */
export async function latestFirstBloods(ctx: Context, input: FirstBloodsInput): Promise<{ results: FirstBlood[] } | Hidden> {
  const view = await boardView(ctx, input);
  if (view.hidden) return { hidden: true };
  const listed = view.staff ? {} : view.teams ? { team: { isVisible: true } } : { user: { isVisible: true, isActive: true, isStaff: false } };
  const solves = await ctx.db.solve.findMany({
    where: {
      firstBlood: true,
      ...(view.frozenAt && { timestamp: { lte: view.frozenAt } }),
      ...(!view.staff && { challenge: releasedChallengeWhere() }),
      ...listed,
    },
    select: { challengeId: true, timestamp: true, challenge: { select: { name: true } }, team: { select: { name: true } }, user: { select: { username: true } } },
    orderBy: [{ timestamp: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  return {
    results: solves.map((s) => ({
      challenge_id: s.challengeId,
      challenge_name: s.challenge.name,
      solver_name: view.teams ? s.team.name : s.user.username,
      timestamp: s.timestamp.toISOString(),
    })),
  };
}
