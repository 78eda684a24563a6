import { AppError } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { LOCKING_TX, lockTeams } from "./lock.ts";

export const TEAM_HAS_SCORED = "This team has scored: hide it instead, so that its solves and its members' points stay.";

/**
 * Staff delete a team (the team admin's Delete), audited as delete_team. Its members are left
 * without a team. A team that has scored is refused: its solves, first bloods and its members'
 * points hang on it, so such a team is hidden instead.
 */
export async function deleteTeamAsStaff(ctx: StaffContext, teamId: number): Promise<void> {
  const members = await ctx.db.$transaction(async (tx) => {
    const found = await lockTeams(tx, [teamId]);
    if (!found.has(teamId)) throw new AppError("not_found");
    const [solves, records] = await Promise.all([tx.solve.count({ where: { teamId } }), tx.scoreRecord.count({ where: { teamId } })]);
    if (solves + records > 0) throw new AppError("permission_denied", { message: TEAM_HAS_SCORED });
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
    const users = await tx.user.findMany({ where: { teamId }, select: { id: true }, orderBy: { id: "asc" } });
    await tx.user.updateMany({ where: { teamId }, data: { teamId: null } });
    await tx.team.delete({ where: { id: teamId }, select: { id: true } });
    await writeAudit(tx, ctx.actor, "delete_team", { team: teamId, name: team.name, members: users.map((u) => u.id) });
    return users;
  }, LOCKING_TX);
  for (const user of members) await ctx.events.publish({ kind: "internal", name: "membership_changed", data: { userId: user.id, teamId: null } });
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
}
