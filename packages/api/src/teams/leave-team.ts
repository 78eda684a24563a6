import { AppError } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";
import { LOCKING_TX, lockTeams, shiftMemberPoints } from "./lock.ts";

/**
 * Leaves the caller's team (POST /team/leave/). Someone who solved anything for the team stays,
 * so points cannot be carried away; an owner must hand the team on first unless they are alone,
 * in which case the team goes with them.
 */
export async function leaveTeam(ctx: AuthedContext): Promise<{ deletedTeam: boolean }> {
  if (!(await ctx.config.get("enable_teams"))) throw new AppError("permission_denied");
  if (!(await ctx.config.get("enable_team_leave"))) throw new AppError("leave_disabled");
  const current = await ctx.db.user.findUnique({ where: { id: ctx.actor.id }, select: { teamId: true } });
  const teamId = current?.teamId ?? null;
  if (teamId === null) throw new AppError("not_found");

  const result = await ctx.db.$transaction(async (tx) => {
    // The user row first, as a solve takes it first: a solve racing this leave either lands before
    // (and the count below refuses the leave) or finds the user gone from the team.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${ctx.actor.id} FOR NO KEY UPDATE`;
    await lockTeams(tx, [teamId]);
    const user = await tx.user.findUniqueOrThrow({
      where: { id: ctx.actor.id },
      select: { teamId: true, points: true, leaderboardPoints: true },
    });
    // A concurrent leave or staff move got there first.
    if (user.teamId !== teamId) throw new AppError("not_found");
    const solved = await tx.solve.count({ where: { teamId, userId: ctx.actor.id } });
    if (solved > 0) throw new AppError("challenge_solved");
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { ownerId: true } });
    const members = await tx.user.count({ where: { teamId } });
    const isOwner = team.ownerId === ctx.actor.id;
    if (isOwner && members > 1) throw new AppError("cannot_leave_team_ownerless");

    await tx.user.update({ where: { id: ctx.actor.id }, data: { teamId: null }, select: { id: true } });
    if (members <= 1) {
      // The last member takes the team with them, unless it still holds solves of members staff
      // moved elsewhere: those stay on record under an ownerless team.
      const kept = await tx.solve.count({ where: { teamId } });
      if (kept === 0) {
        await tx.team.delete({ where: { id: teamId }, select: { id: true } });
        return { deletedTeam: true };
      }
      await tx.team.update({ where: { id: teamId }, data: { ownerId: null }, select: { id: true } });
    }
    await shiftMemberPoints(tx, user, teamId, -1);
    return { deletedTeam: false };
  }, LOCKING_TX);
  // The user's sockets leave the team's channel, and the standings moved with their points.
  await ctx.events.publish({ kind: "internal", name: "membership_changed", data: { userId: ctx.actor.id, teamId: null } });
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  return result;
}
