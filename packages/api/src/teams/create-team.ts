import { isUniqueViolation } from "@flagship/db";
import { AppError, parseInput, ZCreateTeamInput } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";
import { checkGroupChoice } from "./groups.ts";
import { LOCKING_TX, shiftMemberPoints } from "./lock.ts";
import { buildTeamView, type TeamView } from "./team-view.ts";

export const TEAM_NAME_TAKEN = "A team with that name already exists.";

/** Creates a team owned by the caller, who joins it (POST /team/create/). */
export async function createTeam(ctx: AuthedContext, input: unknown): Promise<TeamView> {
  if (!(await ctx.config.get("enable_teams"))) throw new AppError("permission_denied");
  if (ctx.actor.teamId !== null) throw new AppError("already_in_team");
  const { name, password, leaderboard_group: groupId } = parseInput(ZCreateTeamInput, input);
  // A team picks its division when it is created; players only those offered to them.
  await checkGroupChoice(ctx.db, groupId, { staff: false });

  const teamId = await ctx.db
    .$transaction(async (tx) => {
      const team = await tx.team.create({ data: { name, password, ownerId: ctx.actor.id, leaderboardGroupId: groupId ?? null }, select: { id: true } });
      // Conditional on having no team, so a second request racing this one cannot put the caller
      // in two teams: the loser's transaction rolls back its team as well.
      const moved = await tx.user.updateMany({ where: { id: ctx.actor.id, teamId: null }, data: { teamId: team.id } });
      if (moved.count === 0) throw new AppError("already_in_team");
      const user = await tx.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: { points: true, leaderboardPoints: true } });
      await shiftMemberPoints(tx, user, team.id, 1);
      return team.id;
    }, LOCKING_TX)
    .catch((error: unknown) => {
      // The citext unique index decides races between two teams taking one name.
      if (isUniqueViolation(error, "name")) throw AppError.field("unique", "name", TEAM_NAME_TAKEN);
      throw error;
    });

  // The creator's websocket follows them into the new team, and the boards gain a team.
  await ctx.events.publish({ kind: "internal", name: "membership_changed", data: { userId: ctx.actor.id, teamId } });
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  const view = await buildTeamView(ctx, teamId, { withSecret: true, ownTeam: true });
  if (!view) throw new AppError("not_found");
  return view;
}
