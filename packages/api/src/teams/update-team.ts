import { isUniqueViolation, type Prisma } from "@flagship/db";
import {
  AppError,
  parseInput,
  type StaffUpdateTeamInput,
  ZStaffUpdateTeamInput,
  ZUpdateTeamInput,
} from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { AuthedContext, StaffContext } from "../guards.ts";
import { TEAM_NAME_TAKEN } from "./create-team.ts";
import { checkGroupChoice } from "./groups.ts";
import { LOCKING_TX, lockTeams } from "./lock.ts";
import { buildTeamView, type TeamView } from "./team-view.ts";

const NOT_A_MEMBER = "The new owner must be a member of the team.";

/** Applies the fields given; the new owner must already be in the team. Returns what changed. */
async function applyTeamUpdate(tx: Prisma.TransactionClient, teamId: number, input: StaffUpdateTeamInput): Promise<Record<string, unknown>> {
  const current = await tx.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { name: true, description: true, password: true, ownerId: true, isVisible: true, leaderboardGroupId: true },
  });
  // Only staff change a team's group (the owner's patch schema has no such field).
  await checkGroupChoice(tx, input.leaderboard_group, { staff: true });
  if (input.owner !== undefined && input.owner !== current.ownerId) {
    const member = await tx.user.count({ where: { id: input.owner, teamId } });
    if (member === 0) throw AppError.field("invalid", "owner", NOT_A_MEMBER);
  }
  const data: Prisma.TeamUncheckedUpdateInput = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.password !== undefined && { password: input.password }),
    ...(input.owner !== undefined && { ownerId: input.owner }),
    ...(input.is_visible !== undefined && { isVisible: input.is_visible }),
    ...(input.leaderboard_group !== undefined && { leaderboardGroupId: input.leaderboard_group }),
  };
  await tx.team.update({ where: { id: teamId }, data, select: { id: true } });
  const changes: Record<string, unknown> = {};
  if (input.name !== undefined && input.name !== current.name) changes.name = { old: current.name, new: input.name };
  if (input.description !== undefined && input.description !== current.description) changes.description = { old: current.description, new: input.description };
  // The audit log records that a secret changed, never the secret.
  if (input.password !== undefined && input.password !== current.password) changes.password = true;
  if (input.owner !== undefined && input.owner !== current.ownerId) changes.owner = { old: current.ownerId, new: input.owner };
  if (input.is_visible !== undefined && input.is_visible !== current.isVisible) changes.is_visible = { old: current.isVisible, new: input.is_visible };
  if (input.leaderboard_group !== undefined && input.leaderboard_group !== current.leaderboardGroupId) {
    changes.leaderboard_group = { old: current.leaderboardGroupId, new: input.leaderboard_group };
  }
  return changes;
}

function uniqueName(error: unknown): never {
  if (isUniqueViolation(error, "name")) throw AppError.field("unique", "name", TEAM_NAME_TAKEN);
  throw error;
}

/**
 * The owner edits their team (PATCH /team/self/): name, description, secret, or hands ownership to
 * another member. Anyone else in the team gets permission_denied.
 */
export async function updateOwnTeam(ctx: AuthedContext, input: unknown): Promise<TeamView> {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.actor.id }, select: { teamId: true } });
  const teamId = user?.teamId ?? null;
  if (teamId === null) throw new AppError("not_found");
  // Who may edit before what is sent: a non-owner is refused whatever the body, as the contract
  // orders it. Checked again under the lock below, where it decides races.
  const owned = await ctx.db.team.count({ where: { id: teamId, ownerId: ctx.actor.id } });
  if (owned === 0) throw new AppError("permission_denied");
  const patch = parseInput(ZUpdateTeamInput, input);
  await ctx.db
    .$transaction(async (tx) => {
      await lockTeams(tx, [teamId]);
      // Checked under the lock, so a transfer racing another edit cannot let the old owner through.
      const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { ownerId: true } });
      if (team.ownerId !== ctx.actor.id) throw new AppError("permission_denied");
      await applyTeamUpdate(tx, teamId, patch);
    }, LOCKING_TX)
    .catch(uniqueName);
  if (patch.name !== undefined) await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  const view = await buildTeamView(ctx, teamId, { withSecret: true, ownTeam: true });
  if (!view) throw new AppError("not_found");
  return view;
}

/**
 * Staff edit any team (PATCH /team/{id}/), audited; an ownership change is logged as a transfer.
 * The reply carries the secret only with `withSecret` (the tRPC staff view): the REST reply is
 * the `/team/{id}/` object, which the contract gives without password.
 */
export async function updateTeamAsStaff(ctx: StaffContext, teamId: number, input: unknown, options: { withSecret?: boolean } = {}): Promise<TeamView> {
  const patch = parseInput(ZStaffUpdateTeamInput, input);
  await ctx.db
    .$transaction(async (tx) => {
      const found = await lockTeams(tx, [teamId]);
      if (!found.has(teamId)) throw new AppError("not_found");
      const changes = await applyTeamUpdate(tx, teamId, patch);
      if (changes.owner) await writeAudit(tx, ctx.actor, "transfer", { team: teamId, ...(changes.owner as object) });
      await writeAudit(tx, ctx.actor, "edit_team", { team: teamId, changes });
    }, LOCKING_TX)
    .catch(uniqueName);
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  const view = await buildTeamView(ctx, teamId, { withSecret: options.withSecret === true, ownTeam: false });
  if (!view) throw new AppError("not_found");
  return view;
}
