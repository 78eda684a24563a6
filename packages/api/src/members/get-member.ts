import { NO_PROGRESS, scoreVisibility, showsUserScores } from "../leaderboard/score-visibility.ts";
import { frozenUser, frozenView, frozenWorth, laterSolves, showsSolve, shownInFrozenView, withLater } from "../leaderboard/freeze.ts";
import { AppError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";
import { SOLVE_VIEW_SELECT, type SolveView, solveVisibility, toSolveView } from "../teams/solve-view.ts";
import { MEMBER_PUBLIC_SELECT, MEMBER_STAFF_SELECT, type MemberSummary, toMemberSummary } from "./member-view.ts";

export interface MemberDetail extends MemberSummary {
  solves: SolveView[];
  incorrect_solves: number;
}

/** Finds a member a reader may see: invisible members are not_found to everyone but staff and themselves. */
export async function visibleMemberId(ctx: Context, id: number | "me"): Promise<{ id: number; staff: boolean; self: boolean }> {
  const staff = await hasStaffPowers(ctx);
  if (id === "me") {
    if (!ctx.actor) throw new AppError("not_authenticated");
    return { id: ctx.actor.id, staff, self: true };
  }
  const self = ctx.actor?.id === id;
  const user = await ctx.db.user.findUnique({ where: { id }, select: { isVisible: true } });
  if (!user || (!user.isVisible && !staff && !self)) throw new AppError("not_found");
  return { id, staff, self };
}

/** A member's public profile with their solves (GET /member/{id}/); 'me' is the caller. */
export async function getMember(ctx: Context, idOrMe: number | "me"): Promise<MemberDetail> {
  const { id, staff, self } = await visibleMemberId(ctx, idOrMe);
  const visibility = await scoreVisibility(ctx);
  const teamId = visibility.all ? null : ((await ctx.db.user.findUnique({ where: { id }, select: { teamId: true } }))?.teamId ?? null);
  const scores = showsUserScores(visibility, { id, teamId });
  // While the scoreboard is frozen, wrong flags after the freeze count only for the reader's own team.
  const freeze = await frozenView(ctx);
  const [row, solves, incorrect] = await Promise.all([
    ctx.db.user.findUnique({ where: { id }, select: { ...MEMBER_PUBLIC_SELECT, ...(staff && MEMBER_STAFF_SELECT) } }),
    ctx.db.solve.findMany({
      where: { userId: id, ...solveVisibility(staff), ...(!scores && NO_PROGRESS.solves) },
      select: SOLVE_VIEW_SELECT,
      orderBy: { timestamp: "desc" },
    }),
    ctx.db.incorrectAttempt.count({ where: { userId: id, ...(!scores && NO_PROGRESS.attempts), ...(freeze && shownInFrozenView(freeze)) } }),
  ]);
  if (!row) throw new AppError("not_found");
  if (!freeze) return { ...toMemberSummary(row, staff, self, scores), solves: solves.map((s) => toSolveView(s)), incorrect_solves: incorrect };
  // While the scoreboard is frozen: the member as they stood at the freeze, plus their later solves
  // for the reader's own team (freeze.ts).
  const own = freeze.teamId !== null && row.team?.id === freeze.teamId;
  const later = own ? await laterSolves(ctx, freeze, { userId: id, teamId: freeze.teamId! }) : [];
  const totals = withLater(freeze, frozenUser(freeze, id), later);
  return {
    ...toMemberSummary({ ...row, points: totals.points, leaderboardPoints: totals.leaderboardPoints }, staff, self, scores),
    solves: solves.filter((s) => showsSolve(freeze, { team: s.teamId, timestamp: s.timestamp })).map((s) => toSolveView(s, (v) => frozenWorth(freeze, v))),
    incorrect_solves: incorrect,
  };
}

/**
 * A member's profile by username (/profile/ada), case-insensitively as usernames are unique; the
 * same visibility as by id, so an invisible member's name is as unknown as a name nobody has.
 */
export async function getMemberByName(ctx: Context, username: string): Promise<MemberDetail> {
  const user = await ctx.db.user.findUnique({ where: { username }, select: { id: true } });
  if (!user) throw new AppError("not_found");
  return getMember(ctx, user.id);
}
