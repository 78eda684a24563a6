import { scoreVisibility, showsUserScores } from "../leaderboard/score-visibility.ts";
import { frozenUser, frozenView, laterSolves, withLater } from "../leaderboard/freeze.ts";
import type { Prisma } from "@flagship/db";
import { type MemberOrdering, type Page, parseInput, ZMemberListInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";
import { MEMBER_PUBLIC_SELECT, MEMBER_STAFF_SELECT, type MemberSummary, toMemberSummary } from "./member-view.ts";

const ORDER: Record<MemberOrdering, Prisma.UserOrderByWithRelationInput> = {
  username: { username: "asc" },
  "-username": { username: "desc" },
  date_joined: { dateJoined: "asc" },
  "-date_joined": { dateJoined: "desc" },
  leaderboard_points: { leaderboardPoints: "asc" },
  "-leaderboard_points": { leaderboardPoints: "desc" },
  id: { id: "asc" },
  "-id": { id: "desc" },
};

/**
 * Members ordered by username unless asked otherwise (GET /member/?search=&ordering=), paged.
 * Non-staff see visible members only and search by username; staff also search by email and
 * may filter by account flags (the advanced search).
 */
export async function listMembers(ctx: Context, input: unknown): Promise<Page<MemberSummary> & { limit: number; offset: number }> {
  const { limit, offset, search, ordering, ...flags } = parseInput(ZMemberListInput, input);
  const staff = await hasStaffPowers(ctx);
  const scores = await scoreVisibility(ctx);
  const freeze = await frozenView(ctx);
  // Ordering by points would rank everyone on a hidden scoreboard, and by today's points on a frozen one.
  const byPoints = ordering === "leaderboard_points" || ordering === "-leaderboard_points";
  const order = (!scores.all || freeze) && byPoints ? "username" : (ordering ?? "username");
  const where: Prisma.UserWhereInput = {
    // Anyone may leave staff accounts out (the player list does): that reveals nothing. Only staff
    // may ask for staff alone, or filter by the other account flags.
    ...(!staff && { isVisible: true, ...(flags.is_staff === false && { isStaff: false }) }),
    ...(staff && {
      ...(flags.is_staff !== undefined && { isStaff: flags.is_staff }),
      ...(flags.is_active !== undefined && { isActive: flags.is_active }),
      ...(flags.is_visible !== undefined && { isVisible: flags.is_visible }),
      ...(flags.email_verified !== undefined && { emailVerified: flags.email_verified }),
      ...(flags.has_team !== undefined && { teamId: flags.has_team ? { not: null } : null }),
    }),
    ...(search && {
      OR: [
        { username: { contains: search, mode: "insensitive" } },
        ...(staff ? [{ email: { contains: search, mode: "insensitive" as const } }] : []),
      ],
    }),
  };
  const [count, rows] = await Promise.all([
    ctx.db.user.count({ where }),
    ctx.db.user.findMany({
      where,
      select: { ...MEMBER_PUBLIC_SELECT, teamId: true, ...(staff && MEMBER_STAFF_SELECT) },
      orderBy: [ORDER[order], { id: "asc" }],
      skip: offset,
      take: limit,
    }),
  ]);
  if (!freeze) return { count, total: count, limit, offset, results: rows.map((row) => toMemberSummary(row, staff, row.id === ctx.actor?.id, showsUserScores(scores, row))) };
  // While frozen: points as they stood at the freeze, plus the reader's own team's later solves.
  const own = freeze.teamId !== null && rows.some((row) => row.teamId === freeze.teamId) ? await laterSolves(ctx, freeze, { teamId: freeze.teamId! }) : [];
  const results = rows.map((row) => {
    const totals = withLater(freeze, frozenUser(freeze, row.id), row.teamId === freeze.teamId ? own.filter((s) => s.userId === row.id) : []);
    return toMemberSummary({ ...row, points: totals.points, leaderboardPoints: totals.leaderboardPoints }, staff, row.id === ctx.actor?.id, showsUserScores(scores, row));
  });
  return { count, total: count, limit, offset, results };
}
