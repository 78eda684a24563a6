import type { Prisma } from "@flagship/db";
import {
  AppError,
  type CategoryData,
  type PortResult,
  remapUnlock,
  validateCategoryData,
  validateChallengeData,
} from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import { invalidateCatalog } from "../challenges/catalog.ts";
import { withFlagSecret } from "../challenges/flag-sharing.ts";
import { announceChallengeChanges, staffChallengeView } from "../challenges/changes.ts";
import { createChallenge } from "../challenges/manage-challenges.ts";
import type { ChallengeView } from "../challenges/views.ts";
import type { StaffContext } from "../guards.ts";

export type Tx = Prisma.TransactionClient;

export function accept<T>(result: PortResult<T>): T {
  if (!result.ok) throw new AppError("invalid", { message: result.message, details: result.details });
  return result.data;
}

// Big imports do a few large statements; the default 5 s transaction timeout is for small writes.
export const IMPORT_TX = { timeout: 120_000, maxWait: 10_000 } as const;

/**
 * Creates categories, then their challenges, then links the unlocks, inside the caller's
 * transaction. Challenge ids are taken from the sequence up front, so every unlock can be
 * rewritten to the new ids before the rows are written, and each table gets one multi-row insert:
 * 500 challenges cost a handful of statements, not thousands.
 */
export async function writeCategories(tx: Tx, categories: readonly CategoryData[]): Promise<{ categoryIds: number[]; challengeIds: number[] }> {
  const all = categories.flatMap((c) => c.challenges);
  const fresh = all.length === 0 ? [] : await tx.$queryRaw<{ id: number }[]>`SELECT nextval(pg_get_serial_sequence('challenges', 'id'))::int AS id FROM generate_series(1, ${all.length})`;
  const ids = new Map<number, number>(all.map((c, i) => [c.id, fresh[i]!.id]));
  // Hint ids likewise, so requirements (positions in their challenge's list) become ids before the insert.
  const hintCount = all.reduce((n, c) => n + c.hints.length, 0);
  const hintIds = hintCount === 0 ? [] : await tx.$queryRaw<{ id: number }[]>`SELECT nextval(pg_get_serial_sequence('hints', 'id'))::int AS id FROM generate_series(1, ${hintCount})`;
  let nextHint = 0;
  const categoryIds: number[] = [];
  const rows: Prisma.ChallengeCreateManyInput[] = [];
  const tags: Prisma.TagCreateManyInput[] = [];
  const hints: Prisma.HintCreateManyInput[] = [];
  const files: Prisma.FileCreateManyInput[] = [];
  // Category names are unique: an import that brings one the event has already is refused whole.
  const taken = await tx.category.findMany({ where: { name: { in: categories.map((c) => c.name) } }, select: { name: true } });
  if (taken.length > 0) throw AppError.field("unique", "name", `The event already has a category named "${taken[0]!.name}".`);
  const names = new Set<string>();
  for (const category of categories) {
    if (names.has(category.name)) throw AppError.field("unique", "name", `Two categories are named "${category.name}".`);
    names.add(category.name);
  }
  for (const category of categories) {
    const created = await tx.category.create({
      data: {
        name: category.name,
        containedType: category.contained_type,
        description: category.description,
        displayOrder: category.display_order,
        metadata: category.metadata as Prisma.InputJsonObject,
      },
      select: { id: true },
    });
    categoryIds.push(created.id);
    for (const challenge of category.challenges) {
      const id = ids.get(challenge.id)!;
      rows.push({
        id,
        categoryId: created.id,
        name: challenge.name,
        description: challenge.description,
        challengeType: challenge.challenge_type,
        challengeMetadata: challenge.challenge_metadata as Prisma.InputJsonObject,
        flagType: challenge.flag_type,
        flagMetadata: withFlagSecret(challenge.flag_type, challenge.flag_metadata) as Prisma.InputJsonObject,
        author: challenge.author,
        score: challenge.score,
        currentScore: challenge.score,
        pointsType: challenge.points_type,
        unlockRequirements: "",
        hidden: challenge.hidden,
        maintenance: challenge.maintenance,
        tiebreaker: challenge.tiebreaker,
        postScoreExplanation: challenge.post_score_explanation,
        attemptLimit: challenge.attempt_limit === 0 ? null : challenge.attempt_limit,
        scheduledAt: challenge.scheduled_at === null ? null : new Date(challenge.scheduled_at),
      });
      for (const tag of challenge.tags) tags.push({ challengeId: id, type: tag.type, text: tag.text });
      const own = challenge.hints.map(() => hintIds[nextHint++]!.id);
      challenge.hints.forEach((hint, index) => hints.push({ id: own[index]!, challengeId: id, ...hint, requirements: hint.requirements.map((p) => own[p]!) }));
      for (const file of challenge.files) files.push({ challengeId: id, name: file.name, url: file.url, size: BigInt(file.size) });
    }
  }
  if (rows.length > 0) await tx.challenge.createMany({ data: rows });
  if (tags.length > 0) await tx.tag.createMany({ data: tags });
  if (hints.length > 0) await tx.hint.createMany({ data: hints });
  if (files.length > 0) await tx.file.createMany({ data: files });
  // Link the unlocks: one UPDATE for every challenge that has requirements.
  const links = all.filter((c) => c.unlock_requirements !== "").map((c) => ({ id: ids.get(c.id)!, unlock: remapUnlock(c.unlock_requirements, ids) }));
  if (links.length > 0) {
    await tx.$executeRaw`UPDATE challenges AS c SET unlock_requirements = v.unlock FROM unnest(${links.map((l) => l.id)}::int[], ${links.map((l) => l.unlock)}::text[]) AS v(id, unlock) WHERE c.id = v.id`;
  }
  // The suggested next challenges, once every challenge exists: one UPDATE. One the import does not bring is left unset.
  const next = all.filter((c) => c.next_challenge !== null && ids.has(c.next_challenge)).map((c) => ({ id: ids.get(c.id)!, next: ids.get(c.next_challenge!)! }));
  if (next.length > 0) {
    await tx.$executeRaw`UPDATE challenges AS c SET next_challenge_id = v.next FROM unnest(${next.map((l) => l.id)}::int[], ${next.map((l) => l.next)}::int[]) AS v(id, next) WHERE c.id = v.id`;
  }
  return { categoryIds, challengeIds: [...ids.values()] };
}

/**
 * A category export becomes a new category: the category, then its challenges, then the unlocks
 * between them, in one transaction, so a failure leaves nothing half-imported.
 */
export async function importCategory(ctx: StaffContext, input: unknown): Promise<{ id: number; challenges: number }> {
  const data = accept(validateCategoryData(input));
  const result = await ctx.db.$transaction(async (tx) => {
    const written = await writeCategories(tx, [data]);
    await writeAudit(tx, ctx.actor, "import_category", { id: written.categoryIds[0], name: data.name, challenges: written.challengeIds.length });
    return written;
  }, IMPORT_TX);
  await announceChallengeChanges(ctx, result.challengeIds);
  return { id: result.categoryIds[0]!, challenges: result.challengeIds.length };
}

const ZImportChallengeInput = z.object({ category: z.number().int().positive(), data: z.unknown() });

/**
 * One challenge into an existing category. Its unlock requirements and suggested next challenge
 * name challenges of the event it came from, so they are not kept: staff link it again in the
 * editor. Its hints keep their requirements (they name hints of the challenge itself), linked
 * once the hints exist.
 */
export async function importChallenge(ctx: StaffContext, input: unknown): Promise<ChallengeView> {
  const parsed = ZImportChallengeInput.safeParse(input);
  if (!parsed.success) throw AppError.field("required", "category", "This field is required");
  const data = accept(validateChallengeData(parsed.data.data));
  const { unlocks: _unlocks, ...fields } = data;
  const created = await createChallenge(ctx, { ...fields, unlock_requirements: "", next_challenge: null, category: parsed.data.category });
  // The hints were created in the file's order, so the view lists them in it (by id).
  const links = data.hints.flatMap((hint, index) => (hint.requirements.length === 0 ? [] : [{ id: created.hints[index]!.id, requirements: hint.requirements.map((p) => created.hints[p]!.id) }]));
  if (links.length === 0) return created;
  await ctx.db.$transaction(links.map((link) => ctx.db.hint.update({ where: { id: link.id }, data: { requirements: link.requirements } })));
  // Already announced as created: every copy only needs to read it again.
  await invalidateCatalog(ctx);
  return staffChallengeView(ctx, created.id);
}
