import { AppError, parseInput, ZCreateHintInput, ZIdInput, ZUpdateHintInput } from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import { announceChallengeChanges } from "../challenges/changes.ts";
import type { StaffContext } from "../guards.ts";

export interface HintView {
  id: number;
  name: string;
  penalty: number;
  text: string;
  challenge: number;
}

const hintSelect = { id: true, name: true, penalty: true, text: true, challengeId: true } as const;
const toView = (h: { id: number; name: string; penalty: number; text: string; challengeId: number }): HintView => ({
  id: h.id,
  name: h.name,
  penalty: h.penalty,
  text: h.text,
  challenge: h.challengeId,
});

export async function createHint(ctx: StaffContext, input: unknown): Promise<HintView> {
  const data = parseInput(ZCreateHintInput, input);
  const hint = await ctx.db.$transaction(async (tx) => {
    const challenge = await tx.challenge.findUnique({ where: { id: data.challenge }, select: { id: true } });
    if (!challenge) throw AppError.field("invalid", "challenge", `Invalid pk "${data.challenge}" - object does not exist.`);
    const created = await tx.hint.create({
      data: { challengeId: data.challenge, name: data.name, penalty: data.penalty, text: data.text },
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
    const updated = await tx.hint.update({
      where: { id },
      data: {
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
    await writeAudit(tx, ctx.actor, "delete_hint", { id, challenge: found.challengeId, name: found.name });
    return found.challengeId;
  });
  await announceChallengeChanges(ctx, [challengeId]);
}
