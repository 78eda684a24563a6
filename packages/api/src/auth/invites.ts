import { randomBytes } from "node:crypto";
import type { Prisma } from "@flagship/db";
import { AppError, type Page, parseInput, ZGenerateInvitesInput, ZPageInput } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";

export interface InviteView {
  id: number;
  code: string;
  uses: number;
  max_uses: number;
  auto_team: number | null;
}

/** The staff console's invite: the auto-join team named, so staff never read a bare team id. */
export interface NamedInviteView extends InviteView {
  auto_team_name: string | null;
}

const INVITE_SELECT = { id: true, code: true, uses: true, maxUses: true, autoTeamId: true, autoTeam: { select: { name: true } } } satisfies Prisma.InviteSelect;

/** POST /auth/generate_invites/ (staff): up to 10,000 codes at once, each for max_uses registrations. */
export async function generateInvites(ctx: StaffContext, raw: unknown): Promise<{ invite_codes: string[] }> {
  const input = parseInput(ZGenerateInvitesInput, raw);
  const autoTeam = input.auto_team ?? null;
  if (autoTeam !== null && !(await ctx.db.team.findUnique({ where: { id: autoTeam }, select: { id: true } }))) {
    throw AppError.field("invalid", "auto_team", "No team with that id exists.");
  }
  const maxUses = input.max_uses ?? 1;
  // 80 random bits per code: guessing one is hopeless, and the unique index catches the rest.
  const codes = Array.from({ length: input.amount }, () => randomBytes(10).toString("hex"));
  await ctx.db.$transaction(async (tx) => {
    await tx.invite.createMany({ data: codes.map((code) => ({ code, maxUses, autoTeamId: autoTeam })) });
    await writeAudit(tx, ctx.actor, "generate_invites", { amount: input.amount, max_uses: maxUses, auto_team: autoTeam });
  });
  return { invite_codes: codes };
}

const ZInviteListInput = ZPageInput.extend({
  fully_used: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
    .optional()
    .catch(undefined),
});

/** GET /auth/invites/ (staff, paged; `?fully_used=false` lists the ones still usable). */
export async function listInvites(ctx: StaffContext, raw: unknown): Promise<Page<InviteView> & { limit: number; offset: number }> {
  const page = await listNamedInvites(ctx, raw);
  return { ...page, results: page.results.map(({ auto_team_name: _name, ...invite }) => invite) };
}

/** The invites as the staff console lists them: listInvites with each auto-join team's name. */
export async function listNamedInvites(ctx: StaffContext, raw: unknown): Promise<Page<NamedInviteView> & { limit: number; offset: number }> {
  const { limit, offset, fully_used } = parseInput(ZInviteListInput, raw);
  const maxUses = ctx.db.invite.fields.maxUses;
  const where: Prisma.InviteWhereInput =
    fully_used === undefined ? {} : fully_used ? { uses: { gte: maxUses } } : { uses: { lt: maxUses } };
  const [count, rows] = await Promise.all([
    ctx.db.invite.count({ where }),
    ctx.db.invite.findMany({ where, select: INVITE_SELECT, orderBy: { id: "desc" }, skip: offset, take: limit }),
  ]);
  return {
    count,
    total: count,
    limit,
    offset,
    results: rows.map((r) => ({ id: r.id, code: r.code, uses: r.uses, max_uses: r.maxUses, auto_team: r.autoTeamId, auto_team_name: r.autoTeam?.name ?? null })),
  };
}
