import { isUniqueViolation, type Prisma } from "@flagship/db";
import { AppError, type Page, PAGINATION, parseInput, ZLeaderboardGroupInput, ZLeaderboardGroupPatch, ZPageInput } from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import type { StaffContext } from "../guards.ts";

/** A leaderboard group (division) as the contract shows it. */
export interface LeaderboardGroupView {
  id: number;
  name: string;
  description: string;
  is_self_assignable: boolean;
  has_own_leaderboard: boolean;
}

const GROUP_SELECT = { id: true, name: true, description: true, isSelfAssignable: true, hasOwnLeaderboard: true } satisfies Prisma.LeaderboardGroupSelect;
const GROUP_NAME_TAKEN = "A group with that name already exists.";
export const GROUP_NOT_SELF_ASSIGNABLE = "Choose one of the groups offered.";
export const GROUP_UNKNOWN = "There is no such group.";

function toView(g: Prisma.LeaderboardGroupGetPayload<{ select: typeof GROUP_SELECT }>): LeaderboardGroupView {
  return { id: g.id, name: g.name, description: g.description, is_self_assignable: g.isSelfAssignable, has_own_leaderboard: g.hasOwnLeaderboard };
}

function uniqueName(error: unknown): never {
  if (isUniqueViolation(error, "name")) throw AppError.field("unique", "name", GROUP_NAME_TAKEN);
  throw error;
}

/** Every group, oldest first (GET /team/groups/, anyone): the pickers and the board tabs. */
export async function listLeaderboardGroups(ctx: Context, input: unknown = {}): Promise<Page<LeaderboardGroupView> & { limit: number; offset: number }> {
  const { limit, offset } = parseInput(ZPageInput, input ?? {});
  const [count, rows] = await Promise.all([
    ctx.db.leaderboardGroup.count(),
    ctx.db.leaderboardGroup.findMany({ select: GROUP_SELECT, orderBy: { id: "asc" }, skip: offset, take: Math.min(limit, PAGINATION.maxLimit) }),
  ]);
  return { count, total: count, limit, offset, results: rows.map(toView) };
}

export async function createLeaderboardGroup(ctx: StaffContext, input: unknown): Promise<LeaderboardGroupView> {
  const data = parseInput(ZLeaderboardGroupInput, input);
  const group = await ctx.db
    .$transaction(async (tx) => {
      const created = await tx.leaderboardGroup.create({
        data: {
          name: data.name,
          description: data.description ?? "",
          isSelfAssignable: data.is_self_assignable ?? true,
          hasOwnLeaderboard: data.has_own_leaderboard ?? true,
        },
        select: GROUP_SELECT,
      });
      await writeAudit(tx, ctx.actor, "create_leaderboard_group", { id: created.id, name: created.name });
      return created;
    })
    .catch(uniqueName);
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  return toView(group);
}

export async function updateLeaderboardGroup(ctx: StaffContext, id: number, input: unknown): Promise<LeaderboardGroupView> {
  const patch = parseInput(ZLeaderboardGroupPatch, input);
  const group = await ctx.db
    .$transaction(async (tx) => {
      const found = await tx.leaderboardGroup.findUnique({ where: { id }, select: GROUP_SELECT });
      if (!found) throw new AppError("not_found");
      const updated = await tx.leaderboardGroup.update({
        where: { id },
        data: {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.description !== undefined && { description: patch.description }),
          ...(patch.is_self_assignable !== undefined && { isSelfAssignable: patch.is_self_assignable }),
          ...(patch.has_own_leaderboard !== undefined && { hasOwnLeaderboard: patch.has_own_leaderboard }),
        },
        select: GROUP_SELECT,
      });
      const fields = Object.keys(patch);
      await writeAudit(tx, ctx.actor, "edit_leaderboard_group", { id, fields, changes: changedFields(found, updated, fields) });
      return updated;
    })
    .catch(uniqueName);
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  return toView(group);
}

/** Deletes a group; its teams carry on without one. */
export async function deleteLeaderboardGroup(ctx: StaffContext, id: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const removed = await tx.leaderboardGroup.deleteMany({ where: { id } });
    if (removed.count === 0) throw new AppError("not_found");
    await writeAudit(tx, ctx.actor, "delete_leaderboard_group", { id });
  });
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
}

/**
 * Checks a group a team is put in: players may pick only self-assignable groups, staff any group.
 * Null (no group) is always allowed.
 */
export async function checkGroupChoice(db: Pick<Context["db"], "leaderboardGroup">, groupId: number | null | undefined, options: { staff: boolean }): Promise<void> {
  if (groupId === null || groupId === undefined) return;
  const group = await db.leaderboardGroup.findUnique({ where: { id: groupId }, select: { isSelfAssignable: true } });
  if (!group) throw AppError.field("invalid", "leaderboard_group", GROUP_UNKNOWN);
  if (!options.staff && !group.isSelfAssignable) throw AppError.field("invalid", "leaderboard_group", GROUP_NOT_SELF_ASSIGNABLE);
}
