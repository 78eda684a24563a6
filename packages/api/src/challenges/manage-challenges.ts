import type { Prisma } from "@flagship/db";
import {
  AppError,
  challengeValue,
  type CreateChallengeInput,
  flagMetadataError,
  parseInput,
  type UpdateChallengeInput,
  ZCreateChallengeInput,
  ZIdInput,
  ZUpdateChallengeInput,
} from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { announceChallengeChanges, assertValidUnlock, staffChallengeView } from "./changes.ts";
import { withFlagSecret } from "./flag-sharing.ts";
import type { ChallengeView } from "./views.ts";

type Tx = Prisma.TransactionClient;

/** The suggested next challenge must exist, and not be the challenge itself. */
async function assertNext(tx: Tx, next: number | null | undefined, self: number | null): Promise<void> {
  if (next === null || next === undefined) return;
  if (next === self) throw AppError.field("invalid", "next_challenge", "A challenge cannot suggest itself next.");
  const found = await tx.challenge.findUnique({ where: { id: next }, select: { id: true } });
  if (!found) throw AppError.field("invalid", "next_challenge", `Invalid pk "${next}" - object does not exist.`);
}

async function assertCategory(tx: Tx, id: number): Promise<void> {
  const found = await tx.category.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw AppError.field("invalid", "category", `Invalid pk "${id}" - object does not exist.`);
}

function scalarFields(data: Partial<CreateChallengeInput> | UpdateChallengeInput) {
  return {
    ...(data.name !== undefined && { name: data.name }),
    ...(data.description !== undefined && { description: data.description }),
    ...(data.challenge_type !== undefined && { challengeType: data.challenge_type }),
    ...(data.challenge_metadata !== undefined && { challengeMetadata: data.challenge_metadata as Prisma.InputJsonObject }),
    ...(data.flag_type !== undefined && { flagType: data.flag_type }),
    ...(data.flag_metadata !== undefined && { flagMetadata: data.flag_metadata as Prisma.InputJsonObject }),
    ...(data.author !== undefined && { author: data.author }),
    ...(data.score !== undefined && { score: data.score }),
    ...(data.points_type !== undefined && { pointsType: data.points_type }),
    ...(data.unlock_requirements !== undefined && { unlockRequirements: data.unlock_requirements }),
    ...(data.hidden !== undefined && { hidden: data.hidden }),
    ...(data.maintenance !== undefined && { maintenance: data.maintenance }),
    ...(data.tiebreaker !== undefined && { tiebreaker: data.tiebreaker }),
    ...(data.post_score_explanation !== undefined && { postScoreExplanation: data.post_score_explanation }),
    ...(data.attempt_limit !== undefined && { attemptLimit: data.attempt_limit === 0 ? null : data.attempt_limit }),
    ...(data.source !== undefined && { source: data.source }),
    ...(data.next_challenge !== undefined && { nextChallengeId: data.next_challenge }),
    ...(data.scheduled_at !== undefined && { scheduledAt: data.scheduled_at === null ? null : new Date(data.scheduled_at) }),
  };
}

/** A challenge's tags as its audit entries compare them. */
const AUDITED_TAGS = { tags: { select: { type: true, text: true }, orderBy: { id: "asc" } } } as const;

/** POST /challenges/: a challenge with its tags, and optionally files and hints. Audited. */
export async function createChallenge(ctx: StaffContext, input: unknown): Promise<ChallengeView> {
  assertValidUnlock(input);
  const parsed = parseInput(ZCreateChallengeInput, input);
  const data = { ...parsed, flag_metadata: withFlagSecret(parsed.flag_type, parsed.flag_metadata) };
  const id = await ctx.db.$transaction(async (tx) => {
    await assertCategory(tx, data.category);
    await assertNext(tx, data.next_challenge, null);
    const created = await tx.challenge.create({
      data: {
        ...scalarFields(data),
        name: data.name,
        categoryId: data.category,
        currentScore: data.score,
        tags: { create: data.tags },
        hints: { create: data.hints },
        files: { create: data.files.filter((f) => typeof f !== "number").map((f) => ({ ...f, size: BigInt(f.size) })) },
      },
      select: { id: true, name: true },
    });
    const relink = data.files.filter((f): f is number => typeof f === "number");
    if (relink.length > 0) await tx.file.updateMany({ where: { id: { in: relink } }, data: { challengeId: created.id } });
    await writeAudit(tx, ctx.actor, "create_challenge", { id: created.id, name: created.name, category: data.category });
    return created.id;
  });
  await announceChallengeChanges(ctx, [id]);
  return staffChallengeView(ctx, id);
}

/**
 * PATCH /challenges/{id}/. Flag metadata is checked against the flag type the challenge will
 * have. A new score resets current_score to the value for the solves so far (earlier solves keep
 * the points they were awarded).
 */
export async function updateChallenge(ctx: StaffContext, id: number, input: unknown): Promise<ChallengeView> {
  parseInput(ZIdInput, { id });
  assertValidUnlock(input);
  const data = parseInput(ZUpdateChallengeInput, input);
  await ctx.db.$transaction(async (tx) => {
    // The whole row with its tags: the audit entry records each changed field's old and new value.
    const current = await tx.challenge.findUnique({ where: { id }, include: AUDITED_TAGS });
    if (!current) throw new AppError("not_found");
    if (data.category !== undefined) await assertCategory(tx, data.category);
    await assertNext(tx, data.next_challenge, id);
    if (data.flag_type !== undefined || data.flag_metadata !== undefined) {
      const message = flagMetadataError(data.flag_type ?? current.flagType, data.flag_metadata ?? current.flagMetadata);
      if (message) throw AppError.field("invalid", "flag_metadata", message);
    }
    const score = data.score ?? current.score;
    const pointsType = data.points_type ?? current.pointsType;
    // A dynamic challenge always has its secret: given, kept, or generated.
    const flagType = data.flag_type ?? current.flagType;
    if (flagType === "dynamic" && (data.flag_type !== undefined || data.flag_metadata !== undefined)) {
      data.flag_metadata = withFlagSecret(flagType, (data.flag_metadata ?? current.flagMetadata) as Record<string, unknown>);
    }
    const flagMetadata = data.flag_metadata ?? current.flagMetadata;
    const rescore = data.score !== undefined || data.points_type !== undefined || data.flag_metadata !== undefined;
    const updated = await tx.challenge.update({
      where: { id },
      data: {
        ...scalarFields(data),
        ...(data.category !== undefined && { categoryId: data.category }),
        ...(rescore && { currentScore: challengeValue(pointsType, score, current.solveCount, flagMetadata) }),
        ...(data.tags !== undefined && { tags: { deleteMany: {}, create: data.tags } }),
      },
      include: AUDITED_TAGS,
    });
    const fields = Object.keys(data);
    await writeAudit(tx, ctx.actor, "update_challenge", { id, fields, changes: changedFields(current, updated, fields, { category: "categoryId" }) });
  });
  await announceChallengeChanges(ctx, [id]);
  return staffChallengeView(ctx, id);
}

/** DELETE /challenges/{id}/: the challenge and everything hanging off it. Audited. */
export async function deleteChallenge(ctx: StaffContext, id: number): Promise<void> {
  parseInput(ZIdInput, { id });
  await ctx.db.$transaction(async (tx) => {
    const found = await tx.challenge.findUnique({ where: { id }, select: { name: true } });
    if (!found) throw new AppError("not_found");
    await tx.challenge.delete({ where: { id }, select: { id: true } });
    await writeAudit(tx, ctx.actor, "delete_challenge", { id, name: found.name });
  });
  // No event 6 for it: every open client would fetch the challenge and get 404 (upstream sends none).
  await announceChallengeChanges(ctx, []);
}
