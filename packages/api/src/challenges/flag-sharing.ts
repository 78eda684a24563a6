import { randomBytes } from "node:crypto";
import type { Prisma } from "@flagship/db";
import { AppError, deriveTeamFlag, looksLikeTeamFlag, parseInput, ZIdInput } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import type { Context } from "../context.ts";
import { EVENT_CODES } from "../events/publisher.ts";
import type { StaffContext } from "../guards.ts";
import { updateTeamAsStaff } from "../teams/update-team.ts";
import { findChallenge, type JsonObject } from "./catalog.ts";
import { constantTimeEqual } from "./flag-match.ts";
import { findFlagOwner } from "./flag-owners.ts";

/**
 * Per-team (`dynamic`) flags and flag-sharing detection. A dynamic challenge keeps one secret in
 * its flag_metadata (generated when staff leave it out); each team's flag is derived from it, so
 * a flag that belongs to another team identifies that team (flag-owners.ts finds which).
 */

/** flag_metadata with a generated secret when a dynamic challenge has none. */
export function withFlagSecret<T extends object>(flagType: string | undefined, metadata: T): T {
  if (flagType !== "dynamic" || typeof (metadata as { secret?: unknown }).secret === "string") return metadata;
  return { ...metadata, secret: randomBytes(32).toString("hex") };
}

function secretOf(metadata: JsonObject): string | null {
  return typeof metadata.secret === "string" && metadata.secret !== "" ? metadata.secret : null;
}

/** Whether a submission is the submitting team's own flag for a dynamic challenge. */
export function dynamicFlagMatches(metadata: JsonObject, submission: unknown, teamId: number, prefix: string): boolean {
  const secret = secretOf(metadata);
  if (!secret || typeof submission !== "string") return false;
  return constantTimeEqual(submission, deriveTeamFlag(secret, teamId, prefix));
}

const ZTeamFlagInput = z.object({ challenge: z.coerce.number().int().positive(), team: z.coerce.number().int().positive() });

/** GET /challenges/{id}/team_flag/{team_id}/: a team's flag for a dynamic challenge (staff). */
export async function getTeamFlag(ctx: StaffContext, input: unknown): Promise<{ flag: string }> {
  const { challenge: challengeId, team: teamId } = parseInput(ZTeamFlagInput, input);
  const [{ challenge }, team] = await Promise.all([findChallenge(ctx, challengeId), ctx.db.team.findUnique({ where: { id: teamId }, select: { id: true } })]);
  if (!challenge || !team) throw new AppError("not_found");
  const secret = secretOf(challenge.flagMetadata);
  if (challenge.flagType !== "dynamic" || !secret) throw new AppError("bad_request", { message: "This challenge has no per-team flag (flag type dynamic)." });
  return { flag: deriveTeamFlag(secret, team.id, await ctx.config.get("flag_prefix")) };
}

/** The addresses a team submitted this challenge's flags from, newest first. */
async function addressesOf(ctx: Context, teamId: number, challengeId: number): Promise<string[]> {
  const rows = await ctx.db.$queryRaw<{ ip: string }[]>`
    SELECT ip FROM (
      SELECT ip, timestamp FROM solves WHERE team_id = ${teamId} AND challenge_id = ${challengeId} AND ip IS NOT NULL
      UNION ALL
      SELECT ip, timestamp FROM incorrect_attempts WHERE team_id = ${teamId} AND challenge_id = ${challengeId} AND ip IS NOT NULL
    ) AS a GROUP BY ip ORDER BY max(timestamp) DESC LIMIT 10`;
  return rows.map((r) => r.ip);
}

interface Submission {
  challenge: { id: number; name: string; flagType: string; flagMetadata: JsonObject };
  teamId: number;
  userId: number;
  flag: string;
}

async function record(ctx: Context, kind: "team_flag" | "same_wrong_flag", submission: Submission, otherTeamId: number): Promise<void> {
  const [otherIps, teams] = await Promise.all([
    addressesOf(ctx, otherTeamId, submission.challenge.id),
    ctx.db.team.findMany({ where: { id: { in: [submission.teamId, otherTeamId] } }, select: { id: true, name: true } }),
  ]);
  const nameOf = (id: number) => teams.find((team) => team.id === id)?.name ?? "";
  const incident = await ctx.db.sharingIncident.create({
    data: { kind, challengeId: submission.challenge.id, teamId: submission.teamId, userId: submission.userId, otherTeamId, flag: submission.flag, ip: ctx.ip, otherIps },
    select: { id: true, createdAt: true },
  });
  await ctx.events.publish({
    kind: "socket",
    audience: { staff: true },
    payload: {
      event_code: EVENT_CODES.sharingSuspected,
      incident: incident.id,
      kind,
      challenge_id: submission.challenge.id,
      challenge_name: submission.challenge.name,
      team: submission.teamId,
      team_name: nameOf(submission.teamId),
      other_team: otherTeamId,
      other_team_name: nameOf(otherTeamId),
      time: incident.createdAt.toISOString(),
    },
  });
}

/**
 * After a wrong flag: was it another team's per-team flag, or (with sharing_wrong_flag_window
 * set) the same wrong text another team sent shortly before? Either is recorded as an incident and
 * staff are told at once. The submission itself stays an ordinary wrong flag.
 */
export async function detectSharing(ctx: Context, submission: Submission): Promise<void> {
  const config = await ctx.config.all();
  const secret = secretOf(submission.challenge.flagMetadata);
  if (submission.challenge.flagType === "dynamic" && secret && looksLikeTeamFlag(submission.flag, config.flag_prefix)) {
    const owner = await findFlagOwner(ctx.db, { id: submission.challenge.id, secret }, submission.flag, config.flag_prefix, submission.teamId);
    if (owner !== null) return record(ctx, "team_flag", submission, owner);
  }
  const window = config.sharing_wrong_flag_window;
  if (window > 0) {
    const since = new Date((ctx.now() - window) * 1000);
    const [earlier] = await ctx.db.$queryRaw<{ team_id: number }[]>`
      SELECT team_id FROM incorrect_attempts
       WHERE challenge_id = ${submission.challenge.id} AND timestamp >= ${since} AND team_id <> ${submission.teamId} AND flag = ${submission.flag}
       ORDER BY timestamp DESC LIMIT 1`;
    if (earlier) await record(ctx, "same_wrong_flag", submission, earlier.team_id);
  }
}

export interface SharingIncidentView {
  id: number;
  kind: string;
  challenge: { id: number; name: string };
  team: { id: number; name: string; is_visible: boolean };
  other_team: { id: number; name: string; is_visible: boolean };
  user: number | null;
  flag: string;
  ip: string | null;
  other_ips: string[];
  time: string;
}

const ZListInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).catch(25),
  offset: z.coerce.number().int().min(0).catch(0),
});

const TEAM = { select: { id: true, name: true, isVisible: true } } as const;
const SELECT = {
  id: true,
  kind: true,
  userId: true,
  flag: true,
  ip: true,
  otherIps: true,
  createdAt: true,
  challenge: { select: { id: true, name: true } },
  team: TEAM,
  otherTeam: TEAM,
} satisfies Prisma.SharingIncidentSelect;

const teamView = (t: { id: number; name: string; isVisible: boolean }) => ({ id: t.id, name: t.name, is_visible: t.isVisible });

/** GET /admin/sharing/: incidents newest first, a page at a time (staff). */
export async function listSharingIncidents(ctx: StaffContext, input: unknown = {}): Promise<{ count: number; results: SharingIncidentView[] }> {
  const { limit, offset } = parseInput(ZListInput, input ?? {});
  const [count, rows] = await Promise.all([
    ctx.db.sharingIncident.count(),
    ctx.db.sharingIncident.findMany({ select: SELECT, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset }),
  ]);
  return {
    count,
    results: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      challenge: r.challenge,
      team: teamView(r.team),
      other_team: teamView(r.otherTeam),
      user: r.userId,
      flag: r.flag,
      ip: r.ip,
      other_ips: r.otherIps,
      time: r.createdAt.toISOString(),
    })),
  };
}

const ZDisqualifyInput = z.object({ incident: z.number().int().positive(), team: z.number().int().positive() });

/**
 * Disqualifies one of an incident's two teams: hidden from the boards (as staff hiding a team),
 * audited as disqualify_team with the incident.
 */
export async function disqualifyTeam(ctx: StaffContext, input: unknown): Promise<{ team: number; is_visible: false }> {
  const { incident: incidentId, team } = parseInput(ZDisqualifyInput, input);
  parseInput(ZIdInput, { id: team });
  const incident = await ctx.db.sharingIncident.findUnique({ where: { id: incidentId }, select: { teamId: true, otherTeamId: true, challengeId: true } });
  if (!incident) throw new AppError("not_found");
  if (team !== incident.teamId && team !== incident.otherTeamId) throw AppError.field("invalid", "team", "The team is not part of this incident.");
  await updateTeamAsStaff(ctx, team, { is_visible: false });
  await writeAudit(ctx.db, ctx.actor, "disqualify_team", { team, incident: incidentId, challenge: incident.challengeId });
  return { team, is_visible: false };
}
