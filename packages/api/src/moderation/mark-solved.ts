import { isUniqueViolation } from "@flagship/db";
import { AppError, eventGates, parseInput, ZMarkSolvedInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import { patchCatalogForSolve, findChallenge } from "../challenges/catalog.ts";
import { publishSolve } from "../challenges/submit-flag.ts";
import { invalidatePlayerState } from "../challenges/team-state.ts";
import type { StaffContext } from "../guards.ts";
import { freezeTime } from "../leaderboard/freeze.ts";
import { invalidateOwnViews } from "../members/own-views.ts";
import { retryTransaction } from "../scoring/locking.ts";
import { recordSolveIn, type SolveInput } from "../scoring/record-solve.ts";
import { LOCKING_TX } from "../teams/lock.ts";

/**
 * Staff mark a challenge solved for a team (its correct flag refused by a broken checker, say). It
 * is a solve like any other, recorded by the same path as a sent flag (record-solve.ts) so every
 * rule holds: the solve count, decay re-scoring, the freeze (dated now, it is hidden from other
 * teams while frozen), the CTFtime feed. Two differences: it takes first blood only when staff ask
 * (`first_blood`), and no attempt is spent. A team's own correct flag at the same moment makes one
 * solve: the unique (team, challenge) index refuses the second, on whichever copy, and that one
 * answers already_solved_challenge. The solve is credited to a member (totals and the graph need
 * one), by default the team's owner.
 */
export async function markSolved(ctx: StaffContext, input: unknown): Promise<{ solve: number; points: number; first_blood: boolean }> {
  const { team: teamId, challenge: challengeId, user, first_blood } = parseInput(ZMarkSolvedInput, input);
  const { challenge } = await findChallenge(ctx, challengeId);
  if (!challenge) throw new AppError("not_found");
  const team = await ctx.db.team.findUnique({
    where: { id: teamId },
    select: { id: true, name: true, ownerId: true, members: { select: { id: true, username: true }, orderBy: { id: "asc" } } },
  });
  if (!team) throw new AppError("not_found");
  const member = user !== undefined ? team.members.find((m) => m.id === user) : (team.members.find((m) => m.id === team.ownerId) ?? team.members[0]);
  if (!member) throw new AppError("invalid", { message: "Choose a member of this team to credit.", details: { user: ["Choose a member of this team to credit."] } });

  const config = await ctx.config.all();
  const gates = eventGates(config, ctx.now());
  const entry: SolveInput = {
    challengeId,
    userId: member.id,
    teamId,
    scoring: config.enable_scoring && !gates.ended,
    firstBloodAllowed: first_blood,
    ip: null,
    markedById: ctx.actor.id,
  };
  let outcome;
  try {
    // Its own transaction rather than the flag queue's batch, so the audit entry commits with the
    // solve. The unique (team, challenge) index settles a race with the team's own flag.
    outcome = await retryTransaction(() =>
      ctx.db.$transaction(async (tx) => {
        const solved = await recordSolveIn(tx, entry);
        await writeAudit(tx, ctx.actor, "mark_solved", {
          team: teamId,
          team_name: team.name,
          user: member.id,
          challenge: challengeId,
          challenge_name: challenge.name,
          first_blood: solved.firstBlood,
        });
        return solved;
      }, LOCKING_TX),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_solved_challenge");
    throw error;
  }

  await patchCatalogForSolve(ctx, { id: challenge.id, solveCount: outcome.solveCount, currentScore: outcome.points, firstBlood: outcome.firstBlood ? outcome.teamName : null });
  await invalidatePlayerState(ctx, { teamId });
  invalidateOwnViews(ctx, { moved: { teams: outcome.standings.teams.map((t) => t.id), users: outcome.standings.users.map((u) => u.id) } });
  await publishSolve(ctx, challenge, outcome, { id: member.id, username: member.username, teamId }, freezeTime(config, ctx.now()));
  return { solve: outcome.solveId, points: outcome.points, first_blood: outcome.firstBlood };
}
