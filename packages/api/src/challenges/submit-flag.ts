import { isUniqueViolation } from "@flagship/db";
import { AppError, ERRORS, eventGates, parseInput, ZSubmitFlagInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { EVENT_CODES } from "../events/publisher.ts";
import { hasStaffPowers, requireAuth } from "../guards.ts";
import { recordSolvesIn, type SolveEntry, type SolveOutcome, takeAttempt } from "../scoring/record-solve.ts";
import { retryTransaction } from "../scoring/locking.ts";
import { solveInBatch } from "../scoring/solve-queue.ts";
import { LOCKING_TX } from "../teams/lock.ts";
import { announceFirstBlood } from "../scoring/first-blood.ts";
import { type CatalogChallenge, findChallenge, patchCatalogForSolve } from "./catalog.ts";
import { type AttemptTotals, insertAttempts, recordIncorrectAttempt, totalsOf } from "./attempt-writer.ts";
import { flagMatches } from "./flag-match.ts";
import { detectSharing, dynamicFlagMatches } from "./flag-sharing.ts";
import { getPlayerState, invalidatePlayerState } from "./team-state.ts";
import { invalidateOwnViews } from "../members/own-views.ts";
import { isUnlocked } from "@flagship/shared";
import { boardCache } from "../leaderboard/board.ts";
import { freezeTime } from "../leaderboard/freeze.ts";
import { countFlagSubmission, firstBloods } from "../observability/metrics.ts";

export type SubmitFlagResult =
  | { m: "correct_flag"; d: { correct: true; explanation: string } }
  | { m: "incorrect_flag" | "attempt_limit_reached"; d: { correct: false } };

type Recorded = { kind: "limit" } | { kind: "incorrect"; totals: AttemptTotals } | { kind: "solve"; outcome: SolveOutcome };

/**
 * POST /challenges/submit_flag/, in the contract's order: a team is needed; submission switched
 * off (or the event over) is flag_submission_disabled; then a missing field, an unknown or hidden
 * challenge, an already solved or still locked one; then the attempt limit, then the flag itself.
 */
export async function submitFlag(ctx: Context, input: unknown): Promise<SubmitFlagResult> {
  try {
    const result = await judgeFlag(ctx, input);
    countFlagSubmission(result.m);
    return result;
  } catch (error) {
    // Refusals count by their code, a bounded set (the error catalogue); anything else is a fault.
    countFlagSubmission(error instanceof AppError ? error.code : "error");
    throw error;
  }
}

async function judgeFlag(ctx: Context, input: unknown): Promise<SubmitFlagResult> {
  const authed = requireAuth(ctx);
  const { actor } = authed;
  if (actor.teamId === null) throw new AppError("permission_denied", { message: ERRORS.team_required.message });
  const teamId = actor.teamId;
  const staff = await hasStaffPowers(authed);
  const config = await ctx.config.all();
  const gates = eventGates(config, ctx.now());
  if (!staff && !gates.started) throw new AppError("permission_denied");
  if (!config.enable_flag_submission || (gates.ended && !config.enable_flag_submission_after_competition)) {
    throw new AppError("flag_submission_disabled");
  }
  await ctx.throttle.check(ctx, "flag_submit");
  const { challenge: challengeId, flag } = parseInput(ZSubmitFlagInput, input);

  const { challenge } = await findChallenge(ctx, challengeId);
  if (!challenge || (challenge.withheld && !staff)) throw new AppError("not_found");
  // The team's state comes from the per-user cache, which our own solves clear at once; the unique
  // (team, challenge) index still refuses a second correct solve whatever the cache says.
  const team = await getPlayerState(ctx, actor.id, teamId);
  if (team.solved.has(challenge.id)) throw new AppError("already_solved_challenge");
  if (!isUnlocked(challenge.unlockRequirements, team.solved)) throw new AppError("challenge_not_unlocked");

  const correct =
    challenge.flagType === "dynamic" ? dynamicFlagMatches(challenge.flagMetadata, flag, teamId, config.flag_prefix) : flagMatches(challenge.flagType, challenge.flagMetadata, flag, config.flag_prefix);
  const limit = challenge.attemptLimit !== null && challenge.attemptLimit > 0 ? challenge.attemptLimit : null;
  const text = typeof flag === "string" ? flag : JSON.stringify(flag);
  let recorded: Recorded;
  try {
    if (correct) {
      // A correct flag joins the next batch of solves in this process (solve-queue.ts): recorded
      // with every other solve that waited, in one transaction.
      const entry: SolveEntry = {
        challengeId: challenge.id,
        userId: actor.id,
        teamId,
        scoring: config.enable_scoring && !gates.ended,
        // Staff testing a hidden challenge must not take first blood from the first real team.
        firstBloodAllowed: !challenge.withheld,
        ip: ctx.ip,
        flag: text,
        attemptLimit: limit,
      };
      const result = await solveInBatch(
        ctx.db,
        entry,
        (e) => `${e.teamId}:${e.challengeId}`,
        // LOCKING_TX: room to wait for a connection and for team locks under load, rather than answer 500.
        (entries) => retryTransaction(() => ctx.db.$transaction((tx) => recordSolvesIn(tx, entries), LOCKING_TX)),
      );
      if (result.kind === "refused") throw result.error;
      recorded = result;
    } else if (limit === null) {
      // The commonest write of an event: no interactive transaction, and attempts arriving together
      // share one multi-row INSERT and one commit (attempt-writer.ts); answered once committed.
      const totals = await recordIncorrectAttempt(ctx.db, { teamId, userId: actor.id, challengeId: challenge.id, flag: text, ip: ctx.ip ?? null });
      recorded = { kind: "incorrect", totals };
    } else {
      // The attempt and the incorrect attempt it is spent on commit together or not at all.
      recorded = await retryTransaction(() =>
        ctx.db.$transaction(async (tx): Promise<Recorded> => {
          if (!(await takeAttempt(tx, teamId, challenge.id, limit))) return { kind: "limit" };
          const row = { teamId, userId: actor.id, challengeId: challenge.id, flag: text, ip: ctx.ip ?? null };
          return { kind: "incorrect", totals: totalsOf(await insertAttempts(tx, [row]), row) };
        }, LOCKING_TX),
      );
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_solved_challenge");
    throw error;
  }

  if (recorded.kind === "limit") return { m: "attempt_limit_reached", d: { correct: false } };
  if (recorded.kind === "incorrect") {
    // The team's and the user's wrong-flag totals moved: here at once, in other copies on the event
    // below, which carries them (never to sockets).
    const attempts = { teamId, team: recorded.totals.team, userId: actor.id, user: recorded.totals.user };
    invalidateOwnViews(ctx, { attempts });
    await ctx.events.publish({
      kind: "socket",
      audience: { teamId },
      attempts,
      payload: {
        event_code: EVENT_CODES.flagRejected,
        user: actor.id,
        username: actor.username,
        challenge_id: challenge.id,
        challenge_name: challenge.name,
        team: teamId,
        team_name: team.teamName ?? "",
      },
    });
    // Staff watching the submissions log hear of every wrong flag (the team's own event above reaches
    // its members only); the text stays in the database, for staff to read through the log.
    await ctx.events.publish({ kind: "socket", audience: { staff: true }, payload: { event_code: EVENT_CODES.submission, team: teamId, challenge_id: challenge.id } });
    await detectSharing(ctx, { challenge, teamId, userId: actor.id, flag: text });
    return { m: "incorrect_flag", d: { correct: false } };
  }

  const { outcome } = recorded;
  if (outcome.firstBlood) firstBloods.inc();
  // The catalog moves with the solve (count, value, first blood) rather than being read again.
  await patchCatalogForSolve(ctx, { id: challenge.id, solveCount: outcome.solveCount, currentScore: outcome.points, firstBlood: outcome.firstBlood ? outcome.teamName : null });
  await invalidatePlayerState(ctx, { teamId });
  // The solvers' views, and on a decay re-scoring every earlier solver's (other copies: the solve event's standings).
  invalidateOwnViews(ctx, { moved: { teams: outcome.standings.teams.map((t) => t.id), users: outcome.standings.users.map((u) => u.id) } });
  const frozenAt = freezeTime(config, ctx.now());
  await publishSolve(ctx, challenge, outcome, { id: actor.id, username: actor.username, teamId }, frozenAt);
  // The webhook's channel is public: a first blood after the freeze would tell players what the
  // frozen scoreboard hides, so it is not announced (staff see it live; the final standings show it).
  if (outcome.firstBlood && config.firstblood_webhook && frozenAt) {
    ctx.log.info({ challenge: challenge.id, team: teamId }, "first blood during the scoreboard freeze: not announced");
  } else if (outcome.firstBlood && config.firstblood_webhook) {
    await announceFirstBlood(ctx, config.firstblood_webhook, {
      challengeName: outcome.challengeName,
      teamName: outcome.teamName,
      username: actor.username,
      eventName: config.event_name,
    });
  }
  return { m: "correct_flag", d: { correct: true, explanation: outcome.explanation } };
}

/**
 * Events 1 (solve) and 7 (a decay challenge's new value). While the scoreboard is frozen, a solve
 * after the freeze is news for its own team and staff only, worth what the challenge was worth at
 * the freeze as far as the team sees, and the decay it causes for staff only (leaderboard/freeze.ts).
 */
export async function publishSolve(
  ctx: Context,
  challenge: CatalogChallenge,
  outcome: SolveOutcome,
  user: { id: number; username: string; teamId: number },
  frozenAt: Date | null,
): Promise<void> {
  const frozen = frozenAt !== null && outcome.timestamp > frozenAt;
  // A hidden challenge (solved by staff testing it) is news for the solving team only: everyone
  // else must not learn its name, or even that it exists.
  const audience = challenge.withheld ? { teamId: user.teamId } : frozen ? { teamId: user.teamId, staff: true as const } : { all: true as const };
  const score = frozen ? ((await boardCache(ctx).snapshot(ctx.db, frozenAt).catch(() => null))?.challenges.get(challenge.id)?.currentScore ?? outcome.points) : outcome.points;
  await ctx.events.publish({
    kind: "socket",
    audience,
    // The totals the solve left, so every copy's leaderboards move without reading them back.
    standings: outcome.standings,
    payload: {
      event_code: EVENT_CODES.solve,
      user: user.id,
      username: user.username,
      challenge_id: challenge.id,
      challenge_name: outcome.challengeName,
      challenge_score: score,
      team: user.teamId,
      team_name: outcome.teamName,
    },
  });
  // Every solve of a decay challenge, the first included and once its value has reached its floor,
  // as upstream sends it: clients take event 7 as the challenge's current score, whether or not it moved.
  if (challenge.pointsType === "decay") {
    await ctx.events.publish({
      kind: "socket",
      audience: frozen && !challenge.withheld ? { staff: true } : audience,
      payload: { event_code: EVENT_CODES.scoreUpdate, challenge_id: challenge.id, challenge_score: outcome.points },
    });
  }
}
