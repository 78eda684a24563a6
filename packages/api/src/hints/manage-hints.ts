import { AppError, parseInput, ZCreateHintInput, ZIdInput, ZUpdateHintInput } from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import { announceChallengeChanges } from "../challenges/changes.ts";
import type { StaffContext } from "../guards.ts";
import type { Prisma } from "@flagship/db";

export interface HintView {
  id: number;
  name: string;
  penalty: number;
  text: string;
  challenge: number;
  requirements: number[];
}

type Tx = Prisma.TransactionClient;

const hintSelect = { id: true, name: true, penalty: true, text: true, challengeId: true, requirements: true } as const;
const toView = (h: { id: number; name: string; penalty: number; text: string; challengeId: number; requirements: number[] }): HintView => ({
  id: h.id,
  name: h.name,
  penalty: h.penalty,
  text: h.text,
  challenge: h.challengeId,
  requirements: h.requirements,
});

/**
 * A hint's requirements are other hints of its challenge, and never lead back to it (a hint that
 * needs itself, at any remove, could never be used).
 */
async function assertRequirements(tx: Tx, challengeId: number, self: number | null, requirements: readonly number[]): Promise<number[]> {
  const unique = [...new Set(requirements)];
  if (unique.length === 0) return [];
  const hints = await tx.hint.findMany({ where: { challengeId }, select: { id: true, requirements: true } });
  const byId = new Map(hints.map((h) => [h.id, h.requirements]));
  for (const id of unique) {
    if (id === self) throw AppError.field("invalid", "requirements", "A hint cannot require itself.");
    if (!byId.has(id)) throw AppError.field("invalid", "requirements", `Hint ${id} is not a hint of this challenge.`);
  }
  if (self !== null) {
    byId.set(self, unique);
    const seen = new Set<number>();
    const stack = [...unique];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === self) throw AppError.field("invalid", "requirements", "These requirements go round in a circle: no hint of it could ever be used.");
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(byId.get(id) ?? []));
    }
  }
  return unique;
}

export async function createHint(ctx: StaffContext, input: unknown): Promise<HintView> {
  const data = parseInput(ZCreateHintInput, input);
  const hint = await ctx.db.$transaction(async (tx) => {
    const challenge = await tx.challenge.findUnique({ where: { id: data.challenge }, select: { id: true } });
    if (!challenge) throw AppError.field("invalid", "challenge", `Invalid pk "${data.challenge}" - object does not exist.`);
    const created = await tx.hint.create({
      data: { challengeId: data.challenge, name: data.name, penalty: data.penalty, text: data.text, requirements: await assertRequirements(tx, data.challenge, null, data.requirements) },
      select: hintSelect,
    });
    await writeAudit(tx, ctx.actor, "create_hint", { id: created.id, challenge: data.challenge, name: data.name });
    return created;
  });
  await announceChallengeChanges(ctx, [hint.challengeId]);
  return toView(hint);
}

export async function updateHint(ctx: StaffContext, id: number, input: unknown): Promise<HintView> {
  parseInput(ZIdInput, { id });
  const data = parseInput(ZUpdateHintInput, input);
  const hint = await ctx.db.$transaction(async (tx) => {
    const found = await tx.hint.findUnique({ where: { id }, select: hintSelect });
    if (!found) throw new AppError("not_found");
    const requirements = data.requirements === undefined ? undefined : await assertRequirements(tx, found.challengeId, id, data.requirements);
    const updated = await tx.hint.update({
      where: { id },
      data: {
        ...(requirements !== undefined && { requirements }),
        ...(data.name !== undefined && { name: data.name }),
        ...(data.penalty !== undefined && { penalty: data.penalty }),
        ...(data.text !== undefined && { text: data.text }),
      },
      select: hintSelect,
    });
    const fields = Object.keys(data);
    await writeAudit(tx, ctx.actor, "update_hint", { id, fields, changes: changedFields(found, updated, fields) });
    return updated;
  });
  await announceChallengeChanges(ctx, [hint.challengeId]);
  return toView(hint);
}

export async function deleteHint(ctx: StaffContext, id: number): Promise<void> {
  parseInput(ZIdInput, { id });
  const challengeId = await ctx.db.$transaction(async (tx) => {
    const found = await tx.hint.findUnique({ where: { id }, select: { challengeId: true, name: true } });
    if (!found) throw new AppError("not_found");
    await tx.hint.delete({ where: { id }, select: { id: true } });
    // Hints that required it no longer wait for it.
    await tx.$executeRaw`UPDATE hints SET requirements = array_remove(requirements, ${id}) WHERE challenge_id = ${found.challengeId} AND ${id} = ANY(requirements)`;
    await writeAudit(tx, ctx.actor, "delete_hint", { id, challenge: found.challengeId, name: found.name });
    return found.challengeId;
  });
  await announceChallengeChanges(ctx, [challengeId]);
}
