import { isUniqueViolation, type Prisma } from "@flagship/db";
import { AppError, parseInput, ZCategoryInput, ZIdInput, ZUpdateCategoryInput } from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { announceChallengeChanges, staffCategoryView } from "./changes.ts";
import type { CategoryView } from "./views.ts";

/**
 * Names are unique (a database index): categories are found by name, by staff and by a challenge
 * sync, and two of one name would split a category's challenges between them. Of two creations
 * racing with one name, the index fails the second; it answers `unique` on the name.
 */
export const CATEGORY_NAME_TAKEN = "A category of this name exists already.";

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw AppError.field("unique", "name", CATEGORY_NAME_TAKEN);
  throw error;
}

export async function createCategory(ctx: StaffContext, input: unknown): Promise<CategoryView> {
  const data = parseInput(ZCategoryInput, input);
  const category = await ctx.db.$transaction(async (tx) => {
    const created = await tx.category.create({
      data: {
        name: data.name,
        containedType: data.contained_type,
        description: data.description,
        displayOrder: data.display_order,
        metadata: data.metadata as Prisma.InputJsonObject,
      },
      select: { id: true, name: true },
    });
    await writeAudit(tx, ctx.actor, "create_category", { id: created.id, name: created.name });
    return created;
  }).catch(nameTaken);
  await announceChallengeChanges(ctx, []);
  return staffCategoryView(ctx, category.id);
}

export async function updateCategory(ctx: StaffContext, id: number, input: unknown): Promise<CategoryView> {
  parseInput(ZIdInput, { id });
  const data = parseInput(ZUpdateCategoryInput, input);
  await ctx.db.$transaction(async (tx) => {
    const found = await tx.category.findUnique({ where: { id } });
    if (!found) throw new AppError("not_found");
    const updated = await tx.category.update({
      where: { id },
      data: {
        ...(data.name !== undefined && { name: data.name }),
        ...(data.contained_type !== undefined && { containedType: data.contained_type }),
        ...(data.description !== undefined && { description: data.description }),
        ...(data.display_order !== undefined && { displayOrder: data.display_order }),
        ...(data.metadata !== undefined && { metadata: data.metadata as Prisma.InputJsonObject }),
      },
    });
    const fields = Object.keys(data);
    await writeAudit(tx, ctx.actor, "update_category", { id, fields, changes: changedFields(found, updated, fields) });
  }).catch(nameTaken);
  await announceChallengeChanges(ctx, []);
  return staffCategoryView(ctx, id);
}

/** Deleting a category deletes its challenges (and their solves) with it. */
export async function deleteCategory(ctx: StaffContext, id: number): Promise<void> {
  parseInput(ZIdInput, { id });
  await ctx.db.$transaction(async (tx) => {
    const category = await tx.category.findUnique({ where: { id }, select: { name: true, challenges: { select: { id: true } } } });
    if (!category) throw new AppError("not_found");
    await tx.category.delete({ where: { id }, select: { id: true } });
    await writeAudit(tx, ctx.actor, "delete_category", { id, name: category.name, challenges: category.challenges.map((c) => c.id) });
  });
  // No event 6 for the challenges that went with it: clients would fetch each and get 404.
  await announceChallengeChanges(ctx, []);
}
