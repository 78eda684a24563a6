import { AppError, parseInput, ZDeleteAccountInput } from "@flagship/shared";
import type { Prisma } from "@flagship/db";
import { writeAudit } from "../audit/write-audit.ts";
import type { AuthedContext, StaffContext } from "../guards.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { allTokensOf, deleteTokens, sessionsRevoked } from "../auth/tokens.ts";

/**
 * Deletes the own account (current password required; not from an impersonation session).
 *
 * What happens, and why:
 * - Personal data goes: email, profile fields, 2FA secret and backup codes, mailed links, tokens,
 *   notification preferences, the record of failed sign-ins (it holds addresses). The name becomes `deleted-<id>` and the account can never log in.
 * - The row stays, hidden and inactive, because its solves stay: they were scored for the team,
 *   and teammates must not lose points (or first bloods) because one member left the site.
 * - A team the user owned passes to its longest-standing other member; a team left with no
 *   other member is hidden and loses its owner.
 */
export async function deleteAccount(ctx: AuthedContext, raw: unknown): Promise<void> {
  const { password } = parseInput(ZDeleteAccountInput, raw);
  if (ctx.actor.impersonatorId !== null) throw new AppError("permission_denied");
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: { id: true, passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, password))) throw AppError.field("invalid_password", "password");

  const ended = await ctx.db.$transaction((tx) => eraseAccount(tx, user.id));
  // Its websockets close with its tokens (and those of people it was impersonating), and the
  // boards drop the now hidden account.
  await sessionsRevoked(ctx.events, [user.id, ...ended]);
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
}

/**
 * What deleting an account does to the database (see deleteAccount for the reasons): personal
 * data and sessions go, the row stays hidden and inactive so team scores keep their solves.
 */
async function eraseAccount(tx: Prisma.TransactionClient, userId: number): Promise<number[]> {
  const owned = await tx.team.findMany({ where: { ownerId: userId }, select: { id: true } });
  for (const team of owned) {
    const heir = await tx.user.findFirst({
      where: { teamId: team.id, id: { not: userId }, isActive: true },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    await tx.team.update({
      where: { id: team.id },
      data: heir ? { ownerId: heir.id } : { ownerId: null, isVisible: false },
      select: { id: true },
    });
  }
  const ended = await deleteTokens(tx, allTokensOf(userId));
  await tx.backupCode.deleteMany({ where: { userId } });
  await tx.emailToken.deleteMany({ where: { userId } });
  await tx.notificationPreference.deleteMany({ where: { userId } });
  await tx.signInFailures.deleteMany({ where: { userId } });
  await tx.user.update({
    where: { id: userId },
    data: {
      username: `deleted-${userId}`,
      email: `deleted-${userId}@deleted.invalid`,
      // Not an argon2 hash, so no password can ever match it.
      passwordHash: "!deleted",
      isActive: false,
      isVisible: false,
      isStaff: false,
      bio: "",
      discord: "",
      discordid: "",
      twitter: "",
      reddit: "",
      totpSecret: null,
      totpVerified: false,
      totpLastStep: null,
      signupIp: null,
      lastIp: null,
    },
    select: { id: true },
  });
  return ended;
}

/**
 * Staff delete a member (the member admin's Delete), the same way an account is deleted by its
 * owner; audited as delete_member. Staff delete their own account from their settings instead.
 */
export async function deleteMemberAsStaff(ctx: StaffContext, id: number): Promise<void> {
  if (id === ctx.actor.id) throw new AppError("permission_denied", { message: "Delete your own account from your settings." });
  const ended = await ctx.db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id }, select: { id: true, username: true, passwordHash: true } });
    if (!user || user.passwordHash === "!deleted") throw new AppError("not_found");
    const gone = await eraseAccount(tx, id);
    await writeAudit(tx, ctx.actor, "delete_member", { user: id, username: user.username });
    return gone;
  });
  await sessionsRevoked(ctx.events, [id, ...ended]);
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
}
