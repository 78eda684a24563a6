import { isUniqueViolation, type Prisma } from "@flagship/db";
import { AppError, parseInput, ZStaffUpdateMemberInput } from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import { allTokensOf, deleteTokens, loginSession, sessionsRevoked, staffTokensOf } from "../auth/tokens.ts";
import type { StaffContext } from "../guards.ts";
import { LOCKING_TX, lockTeams, shiftMemberPoints } from "../teams/lock.ts";
import { getMember, type MemberDetail } from "./get-member.ts";

const FIELD_COLUMNS = {
  username: "username",
  email: "email",
  bio: "bio",
  discord: "discord",
  discordid: "discordid",
  twitter: "twitter",
  reddit: "reddit",
  is_staff: "isStaff",
  is_verified: "isVerified",
  state_actor: "stateActor",
  is_visible: "isVisible",
  is_active: "isActive",
} as const;

/**
 * Moves a member between teams as staff (no team_size or leave rules: staff override them). Points
 * travel with the member; an owner who is moved out hands the team to its longest-standing member.
 */
async function moveMember(tx: Prisma.TransactionClient, userId: number, to: number | null): Promise<{ from: number | null }> {
  const before = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { teamId: true } });
  const found = await lockTeams(tx, [before.teamId, to].filter((id): id is number => id !== null));
  if (to !== null && !found.has(to)) throw AppError.field("invalid", "team", "No team with that id exists.");
  // Read again under the locks: a join or leave may have moved the member meanwhile.
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { teamId: true, points: true, leaderboardPoints: true } });
  const from = user.teamId;
  if (from === to) return { from };
  await tx.user.update({ where: { id: userId }, data: { teamId: to }, select: { id: true } });
  if (from !== null) {
    await shiftMemberPoints(tx, user, from, -1);
    const old = await tx.team.findUniqueOrThrow({ where: { id: from }, select: { ownerId: true } });
    if (old.ownerId === userId) {
      const heir = await tx.user.findFirst({ where: { teamId: from }, select: { id: true }, orderBy: { id: "asc" } });
      await tx.team.update({ where: { id: from }, data: { ownerId: heir?.id ?? null }, select: { id: true } });
    }
  }
  if (to !== null) {
    await shiftMemberPoints(tx, user, to, 1);
    // A team left without an owner gets its first new member as owner.
    await tx.team.updateMany({ where: { id: to, ownerId: null }, data: { ownerId: userId } });
  }
  return { from };
}

/** Staff edit any member (PATCH /member/{id}/), audited as edit_member (and unteam when removed from a team). */
export async function updateMemberAsStaff(ctx: StaffContext, id: number, input: unknown): Promise<MemberDetail> {
  const patch = parseInput(ZStaffUpdateMemberInput, input);
  const ended = await ctx.db
    .$transaction(async (tx) => {
      // The audited columns as they were, for the entry's old and new values.
      const audited = { ...Object.fromEntries(Object.values(FIELD_COLUMNS).map((c) => [c, true])), teamId: true } as Prisma.UserSelect;
      const before = await tx.user.findUnique({ where: { id }, select: audited });
      if (!before) throw new AppError("not_found");
      // A password reset trusts the address: changing it is taking the account, so it takes a
      // login session. Otherwise a leaked personal access token would turn itself into a password
      // (and so a lasting staff login) by pointing an account's email at its holder.
      if (patch.email !== undefined) await loginSession(tx, ctx.actor);
      const data: Prisma.UserUncheckedUpdateInput = {};
      const changed: string[] = [];
      for (const [field, column] of Object.entries(FIELD_COLUMNS) as [keyof typeof FIELD_COLUMNS, string][]) {
        if (patch[field] === undefined) continue;
        (data as Record<string, unknown>)[column] = patch[field];
        changed.push(field);
      }
      if (changed.length > 0) await tx.user.update({ where: { id }, data, select: { id: true } });
      if (patch.team !== undefined) {
        const { from } = await moveMember(tx, id, patch.team);
        if (from !== patch.team) {
          changed.push("team");
          if (patch.team === null) await writeAudit(tx, ctx.actor, "unteam", { user: id, team: from });
        }
      }
      // Tokens go with the rights they need (the entry's fields say which rule applied), so
      // restoring the rights later revives none of them: a deactivated account's every session
      // (and the impersonations it began), a demoted staff member's personal access tokens and
      // impersonations.
      let revoked: number[] = [];
      if (patch.is_active === false) revoked = await deleteTokens(tx, allTokensOf(id));
      else if (patch.is_staff === false) revoked = await deleteTokens(tx, staffTokensOf(id));
      const after = await tx.user.findUniqueOrThrow({ where: { id }, select: audited });
      const changes = changedFields(before, after, changed, { ...FIELD_COLUMNS, team: "teamId" });
      await writeAudit(tx, ctx.actor, "edit_member", { user: id, fields: changed, changes, ...(patch.team !== undefined && { team: patch.team }) });
      return revoked;
    }, LOCKING_TX)
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "username")) throw AppError.field("unique", "username", "That username is already taken.");
      if (isUniqueViolation(error, "email")) throw AppError.field("unique", "email", "That email is already in use.");
      throw error;
    });
  if (patch.team !== undefined) await ctx.events.publish({ kind: "internal", name: "membership_changed", data: { userId: id, teamId: patch.team } });
  // A deactivated account's tokens stop resolving; its open websockets must close as well, and so
  // must those opened with the impersonations that ended. A change of staff rights has its
  // sockets checked again too: a demoted member's stop hearing staff-only news.
  await sessionsRevoked(ctx.events, patch.is_active === false || patch.is_staff !== undefined ? [id, ...ended] : ended);
  // Visibility, names and team moves all change what the boards show.
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  return getMember(ctx, id);
}
