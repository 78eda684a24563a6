import { Prisma } from "@flagship/db";
import { AppError, parseInput, ZGiveAwardInput } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import { hasStaffPowers, type StaffContext } from "../guards.ts";
import { freezeTime } from "../leaderboard/freeze.ts";
import { invalidatePlayerState } from "../challenges/team-state.ts";
import { retryTransaction } from "../scoring/locking.ts";
import { LOCKING_TX } from "../teams/lock.ts";

/**
 * Awards: points staff give or take with a reason. Each moves the totals (points and, while
 * scoring is on, leaderboard points) in the transaction that records it, with a score record dated
 * then, which is what the graph and the freeze read: an award after the freeze is live for staff
 * and hidden from players until the reveal, as a solve would be (freeze.ts takes every score record
 * after the freeze off the snapshot). An award does not move the tiebreaker time (last_score_at):
 * the tie goes to who solved first, not to whom staff last gave points. Removing one writes the
 * opposite record, dated then, rather than deleting anything.
 */

export interface AwardView {
  id: number;
  team: number | null;
  user: number | null;
  username: string | null;
  points: number;
  reason: string;
  created_at: string;
  removed_at: string | null;
}

const awardSelect = {
  id: true,
  teamId: true,
  userId: true,
  points: true,
  reason: true,
  createdAt: true,
  removedAt: true,
  user: { select: { username: true } },
} satisfies Prisma.AwardSelect;

const view = (a: Prisma.AwardGetPayload<{ select: typeof awardSelect }>): AwardView => ({
  id: a.id,
  team: a.teamId,
  user: a.userId,
  username: a.user?.username ?? null,
  points: a.points,
  reason: a.reason,
  created_at: a.createdAt.toISOString(),
  removed_at: a.removedAt?.toISOString() ?? null,
});

/**
 * Adds `points` to a team and, for a player's award, to the player and their team; rows locked in
 * the order locking.ts documents (users, then teams), one score record each.
 */
async function moveTotals(tx: Prisma.TransactionClient, who: { teamId: number | null; userId: number | null }, points: number, scoring: boolean, at: Date): Promise<void> {
  const leaderboard = scoring ? points : 0;
  if (who.userId !== null) {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${who.userId} FOR NO KEY UPDATE`;
    await tx.$executeRaw`UPDATE users SET points = points + ${points}, leaderboard_points = leaderboard_points + ${leaderboard} WHERE id = ${who.userId}`;
  }
  if (who.teamId !== null) {
    await tx.$queryRaw`SELECT id FROM teams WHERE id = ${who.teamId} FOR NO KEY UPDATE`;
    await tx.$executeRaw`UPDATE teams SET points = points + ${points}, leaderboard_points = leaderboard_points + ${leaderboard} WHERE id = ${who.teamId}`;
  }
  await tx.scoreRecord.create({ data: { userId: who.userId, teamId: who.teamId, reason: "award", points, leaderboard: scoring, timestamp: at } });
}

/** The totals moved: every copy's boards and the team's and player's own views are built again. */
async function announce(ctx: Context, who: { teamId: number | null; userId: number | null }): Promise<void> {
  // A player without a team: own views are kept by team, so every one is dropped (awards are rare).
  await invalidatePlayerState(ctx, who.teamId !== null ? { teamId: who.teamId } : { all: true });
  await ctx.events.publish({ kind: "internal", name: "scores_changed" });
}

export async function giveAward(ctx: StaffContext, input: unknown): Promise<AwardView> {
  const { team, user, points, reason } = parseInput(ZGiveAwardInput, input);
  const config = await ctx.config.all();
  let who: { teamId: number | null; userId: number | null };
  if (user !== undefined) {
    const found = await ctx.db.user.findUnique({ where: { id: user }, select: { teamId: true } });
    if (!found) throw new AppError("not_found");
    who = { teamId: found.teamId, userId: user };
  } else {
    const found = await ctx.db.team.findUnique({ where: { id: team! }, select: { id: true, members: { select: { id: true }, take: 2 } } });
    if (!found) throw new AppError("not_found");
    // In a solo event a team is its one player: the award is the player's, so that the player's
    // points, board row, graph and profile show it as the team's do.
    const solo = !config.enable_teams && found.members.length === 1;
    who = { teamId: team!, userId: solo ? found.members[0]!.id : null };
  }
  const award = await retryTransaction(() =>
    ctx.db.$transaction(async (tx) => {
      const now = new Date();
      const created = await tx.award.create({
        data: { teamId: who.teamId, userId: who.userId, points, reason, createdById: ctx.actor.id, createdAt: now },
        select: awardSelect,
      });
      await moveTotals(tx, who, points, config.enable_scoring, now);
      await writeAudit(tx, ctx.actor, "give_award", { award: created.id, team: who.teamId, user: who.userId, points, reason });
      return created;
    }, LOCKING_TX),
  );
  await announce(ctx, who);
  return view(award);
}

const ZRemoveAward = z.object({ id: z.number().int().positive() });

/** Takes an award back: its points are taken off with a record dated now; a second removal is not_found. */
export async function removeAward(ctx: StaffContext, input: unknown): Promise<AwardView> {
  const { id } = parseInput(ZRemoveAward, input);
  const config = await ctx.config.all();
  const removed = await retryTransaction(() =>
    ctx.db.$transaction(async (tx) => {
      const now = new Date();
      // The conditional update is the lock: of two removals at once, one finds nothing left to remove.
      const { count } = await tx.award.updateMany({ where: { id, removedAt: null }, data: { removedAt: now } });
      if (count === 0) throw new AppError("not_found");
      const award = await tx.award.findUniqueOrThrow({ where: { id }, select: awardSelect });
      await moveTotals(tx, { teamId: award.teamId, userId: award.userId }, -award.points, config.enable_scoring, now);
      await writeAudit(tx, ctx.actor, "remove_award", { award: id, team: award.teamId, user: award.userId, points: award.points, reason: award.reason });
      return award;
    }, LOCKING_TX),
  );
  await announce(ctx, { teamId: removed.teamId, userId: removed.userId });
  return view(removed);
}

const ZListAwards = z.object({ team: z.number().int().positive().optional(), user: z.number().int().positive().optional() });

/**
 * A team's (or a player's) awards, newest first, as their page shows them. Staff see all of them,
 * removed ones too; others see those in force, and while the board is frozen only those given up
 * to the freeze (as the totals beside them).
 */
export async function listAwards(ctx: Context, input: unknown): Promise<AwardView[]> {
  const { team, user } = parseInput(ZListAwards, input);
  if (team === undefined && user === undefined) return [];
  const staff = await hasStaffPowers(ctx);
  const frozenAt = staff ? null : freezeTime(await ctx.config.all(), ctx.now());
  const awards = await ctx.db.award.findMany({
    where: {
      ...(team !== undefined && { teamId: team }),
      ...(user !== undefined && { userId: user }),
      // While frozen, as the totals stood at the freeze: given by then, and not removed by then.
      ...(!staff && (frozenAt ? { createdAt: { lte: frozenAt }, OR: [{ removedAt: null }, { removedAt: { gt: frozenAt } }] } : { removedAt: null })),
    },
    select: awardSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return awards.map(view);
}
