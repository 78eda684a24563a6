import { createHash, timingSafeEqual } from "node:crypto";
import { AppError, parseInput, ZJoinTeamInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import { EVENT_CODES } from "../events/publisher.ts";
import { type AuthedContext, hasStaffPowers } from "../guards.ts";
import { LOCKING_TX, lockTeams, shiftMemberPoints } from "./lock.ts";
import { buildTeamView, type TeamView } from "./team-view.ts";

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Joins a team by name and secret (POST /team/join/), checking in the contract's order. The team
 * row is locked while its members are counted, so any number of simultaneous joins stop at
 * team_size.
 */
export async function joinTeam(ctx: AuthedContext, input: unknown): Promise<TeamView> {
  if (!(await ctx.config.get("enable_teams"))) throw new AppError("permission_denied");
  if (!(await ctx.config.get("enable_team_join"))) throw new AppError("join_disabled");
  if (ctx.actor.teamId !== null) throw new AppError("already_in_team");
  const { name, password } = parseInput(ZJoinTeamInput, input);

  const team = await ctx.db.team.findUnique({ where: { name }, select: { id: true, name: true, password: true } });
  if (!team) throw new AppError("invalid_team");
  // Team names are public and passwords may be short: wrong guesses are limited per account and
  // per team, and each block they earn is in the audit log for staff to see.
  const guess = await ctx.throttle.guess(ctx, "team_join", [`user:${ctx.actor.id}`, `team:${team.id}`], {
    onBlock: (block) =>
      writeAudit(ctx.db, ctx.actor, "team_join_throttled", {
        user: ctx.actor.id,
        team: team.id,
        team_name: team.name,
        blocked: block.subject.startsWith("team:") ? "team" : "account",
        failures: block.failures,
        wait_seconds: block.seconds,
      }),
  });
  if (!sameSecret(team.password, password)) throw new AppError("invalid_team_password");
  await guess.right();

  const teamSize = await ctx.config.get("team_size");
  const exempt = await hasStaffPowers(ctx);
  const username = await ctx.db.$transaction(async (tx) => {
    const found = await lockTeams(tx, [team.id]);
    if (!found.has(team.id)) throw new AppError("invalid_team");
    if (teamSize > 0 && !exempt) {
      const members = await tx.user.count({ where: { teamId: team.id } });
      if (members >= teamSize) throw new AppError("team_full");
    }
    const moved = await tx.user.updateMany({ where: { id: ctx.actor.id, teamId: null }, data: { teamId: team.id } });
    if (moved.count === 0) throw new AppError("already_in_team");
    const user = await tx.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: { username: true, points: true, leaderboardPoints: true } });
    await shiftMemberPoints(tx, user, team.id, 1);
    return user.username;
  }, LOCKING_TX);

  await ctx.events.publish({
    kind: "socket",
    audience: { teamId: team.id },
    payload: { event_code: EVENT_CODES.teamJoin, user: ctx.actor.id, username, team: team.id, team_name: team.name },
  });

  const view = await buildTeamView(ctx, team.id, { withSecret: true, ownTeam: true });
  if (!view) throw new AppError("not_found");
  return view;
}
