import { AppError, parseInput, ZCreateFileInput, ZIdInput, ZUpdateFileInput } from "@flagship/shared";
import { changedFields, writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { announceChallengeChanges } from "./changes.ts";
import { discardUpload, type WrittenUpload } from "./file-storage.ts";

export interface FileView {
  id: number;
  name: string;
  url: string;
  size: number;
  challenge: number;
}

const fileSelect = { id: true, name: true, url: true, size: true, challengeId: true } as const;
const toView = (f: { id: number; name: string; url: string; size: bigint; challengeId: number }): FileView => ({
  id: f.id,
  name: f.name,
  url: f.url,
  size: Number(f.size),
  challenge: f.challengeId,
});

export async function createFile(ctx: StaffContext, input: unknown): Promise<FileView> {
  const data = parseInput(ZCreateFileInput, input);
  const file = await ctx.db.$transaction(async (tx) => {
    const challenge = await tx.challenge.findUnique({ where: { id: data.challenge }, select: { id: true } });
    if (!challenge) throw AppError.field("invalid", "challenge", `Invalid pk "${data.challenge}" - object does not exist.`);
    const created = await tx.file.create({
      data: { challengeId: data.challenge, name: data.name, url: data.url, size: BigInt(data.size) },
      select: fileSelect,
    });
    await writeAudit(tx, ctx.actor, "create_file", { id: created.id, challenge: data.challenge, name: data.name });
    return created;
  });
  await announceChallengeChanges(ctx, [file.challengeId]);
  return toView(file);
}

/**
 * Attaches a file uploaded in the same form as the challenge it is for (RACTF's Upload tab), under
 * the upload's own name and size. The form's parts may come in any order, so the bytes are stored
 * before the challenge is known; a refused form leaves nothing stored.
 */
export async function createUploadedFile(ctx: StaffContext, dataDir: string, upload: WrittenUpload, fields: { challenge?: unknown }): Promise<FileView> {
  try {
    return await createFile(ctx, { challenge: fields.challenge, name: upload.name, url: upload.url, size: upload.size });
  } catch (error) {
    await discardUpload(dataDir, upload);
    throw error;
  }
}

export async function updateFile(ctx: StaffContext, id: number, input: unknown): Promise<FileView> {
  parseInput(ZIdInput, { id });
  const data = parseInput(ZUpdateFileInput, input);
  const file = await ctx.db.$transaction(async (tx) => {
    const found = await tx.file.findUnique({ where: { id }, select: fileSelect });
    if (!found) throw new AppError("not_found");
    const updated = await tx.file.update({
      where: { id },
      data: { ...(data.name !== undefined && { name: data.name }), ...(data.url !== undefined && { url: data.url }), ...(data.size !== undefined && { size: BigInt(data.size) }) },
      select: fileSelect,
    });
    const fields = Object.keys(data);
    await writeAudit(tx, ctx.actor, "update_file", { id, fields, changes: changedFields(found, updated, fields) });
    return updated;
  });
  await announceChallengeChanges(ctx, [file.challengeId]);
  return toView(file);
}

export async function deleteFile(ctx: StaffContext, id: number): Promise<void> {
  parseInput(ZIdInput, { id });
  const challengeId = await ctx.db.$transaction(async (tx) => {
    const found = await tx.file.findUnique({ where: { id }, select: { challengeId: true, name: true } });
    if (!found) throw new AppError("not_found");
    await tx.file.delete({ where: { id }, select: { id: true } });
    await writeAudit(tx, ctx.actor, "delete_file", { id, challenge: found.challengeId, name: found.name });
    return found.challengeId;
  });
  await announceChallengeChanges(ctx, [challengeId]);
}
